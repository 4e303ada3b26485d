/** The fixture web site lives in the test kit (core/testing.ts), for plugin tests and the rest of the suite alike. */
export { startFixtureSite, type FixtureSite, type Route } from '../../core/testing.ts';
