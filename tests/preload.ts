// Password hashing keeps argon2id but with a small memory cost, so hundreds of test accounts stay quick.
process.env.PASSWORD_HASH_MEMORY_KIB ??= "1024";
