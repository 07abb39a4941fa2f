// Password hashing keeps argon2id but with a small memory cost, so hundreds of test accounts stay quick.
process.env.PASSWORD_HASH_MEMORY_KIB ??= "1024";
// Fake upstreams listen on loopback, which the upstream address policy refuses unless allowed; every test
// process, and every server or CLI it starts with its environment, allows it (tests of the policy start
// their servers with UPSTREAM_ALLOW_PRIVATE="").
process.env.UPSTREAM_ALLOW_PRIVATE ??= "127.0.0.0/8,::1";
