//! One test per rule clause of yao (RULES.md 7, rules-sources 6.3-6.4).
use super::*;
