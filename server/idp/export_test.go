package idp

// UseCheapHashes makes new password hashes cheap (argon2id over 256 KiB,
// one pass, one lane), so that tests sign in fast. Call it from TestMain,
// before any test runs; TestHashPassword checks the real parameters.
func UseCheapHashes() { hashParams = argon2Params{memory: 256, time: 1, threads: 1} }
