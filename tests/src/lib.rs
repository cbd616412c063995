//! Cross-crate and command-line tests live in `tests/tests/`.
