//! Table files on disk: format, compression, probing, verification.
