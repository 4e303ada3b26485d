/**
 * A self-signed P-256 certificate for 127.0.0.1 and localhost (valid to 2126), for TLS fixtures: an
 * untrusted server by default, a trusted one where a test hands the certificate to the client. And
 * one for the chat platforms' webhook hosts (and hooks.example.com), for a local receiver that
 * notifications reach under those names (test/servers/chat-platforms.ts).
 */
export const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgNZsaw7Kgv8KoXZQQ
gCkY3NyvfEE6uidwQxmYHKmZN5ShRANCAARaJ6HAtfWZZORiVTQsNz+9EiiRKb1v
xrTiZVMxUQSL4cSBCpgB3yuGPOC6Y6Du8NvnPDiFdRiP7Wm+0sioqNa7
-----END PRIVATE KEY-----`;
export const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBnjCCAUOgAwIBAgIUQi7rjcJUCSv4SH9HOJ0NOQQoxS0wCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKdHJhd2wtdGVzdDAgFw0yNjExMjIwODIwMjhaGA8yMTI2MTAy
OTA4MjAyOFowFTETMBEGA1UEAwwKdHJhd2wtdGVzdDBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABFonocC19Zlk5GJVNCw3P70SKJEpvW/GtOJlUzFRBIvhxIEKmAHf
K4Y84LpjoO7w2+c8OIV1GI/tab7SyKio1rujbzBtMB0GA1UdDgQWBBTkps56gpij
nsBA4PN65omWELqJcDAfBgNVHSMEGDAWgBTkps56gpijnsBA4PN65omWELqJcDAP
BgNVHRMBAf8EBTADAQH/MBoGA1UdEQQTMBGHBH8AAAGCCWxvY2FsaG9zdDAKBggq
hkjOPQQDAgNJADBGAiEAmC1HgywcGbF0OfqOG6U0uJvLpc1fK+cisXG8YGc73e0C
IQCVsFvgI48aS+pfnirFWz8sGsANy5o5J7EPNGzHSKJcTw==
-----END CERTIFICATE-----`;

/** Names: hooks.slack.com, discord.com, api.telegram.org, prod-12.westus.logic.azure.com, hooks.example.com; 127.0.0.1. Valid to 2126. */
export const RECEIVERS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgW8gTzNRhJtx73Sp1
df9liJ1mYuN+1Y+NcCtRJd+vxPehRANCAARC2q9CmaTK4+gmjyN0Jb5+g1/61CS5
uFylNef+w5P+b+x/roQI9v5K6CD5ePI76RQupHWiXGkULpI4TWi7/p+U
-----END PRIVATE KEY-----`;
export const RECEIVERS_CERT = `-----BEGIN CERTIFICATE-----
MIICDDCCAbGgAwIBAgIUOO7FbKzv3MPkF264xfLWH+5+WcIwCgYIKoZIzj0EAwIw
HzEdMBsGA1UEAwwUdHJhd2wtdGVzdC1yZWNlaXZlcnMwIBcNMjYxMTI4MTUwMjUw
WhgPMjEyNjExMDQxNTAyNTBaMB8xHTAbBgNVBAMMFHRyYXdsLXRlc3QtcmVjZWl2
ZXJzMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEQtqvQpmkyuPoJo8jdCW+foNf
+tQkubhcpTXn/sOT/m/sf66ECPb+Sugg+XjyO+kULqR1olxpFC6SOE1ou/6flKOB
yDCBxTAdBgNVHQ4EFgQUkDjGoaYv8m6ctbU5QL9RrJ9whZUwHwYDVR0jBBgwFoAU
kDjGoaYv8m6ctbU5QL9RrJ9whZUwcgYDVR0RBGswaYIPaG9va3Muc2xhY2suY29t
ggtkaXNjb3JkLmNvbYIQYXBpLnRlbGVncmFtLm9yZ4IecHJvZC0xMi53ZXN0dXMu
bG9naWMuYXp1cmUuY29tghFob29rcy5leGFtcGxlLmNvbYcEfwAAATAPBgNVHRMB
Af8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQDlu+HuRgWp+lddIEIOiSAgqNPG
V8e/gZ5vAVYYFx0CVQIhAKACA+EgEhzTa7eVW0O7M6uR0vdO0a+vBIu+gjVcg/51
-----END CERTIFICATE-----`;
