//! Integration and compile-fail tests of elicit live in `tests/`.
