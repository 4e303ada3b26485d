// Loaded before every test file (bunfig.toml): tsyringe needs the Reflect metadata polyfill.
import 'reflect-metadata';
