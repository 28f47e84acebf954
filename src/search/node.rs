//! The kinds of node, as types: the search is compiled once per kind, so a rule that
//! depends on the kind costs nothing where it does not apply.
//!
//! * the root: searches the root move list and keeps the line it found;
//! * PV nodes: on the principal variation, searched with an open window; exact
//!   scores wanted, so no table cutoffs and no null move;
//! * non-PV nodes: null-window searches, where every pruning rule may apply.

pub trait NodeKind {
    const ROOT: bool;
    const PV: bool;
}

pub struct Root;
pub struct Pv;
pub struct NonPv;

impl NodeKind for Root {
    const ROOT: bool = true;
    const PV: bool = true;
}

impl NodeKind for Pv {
    const ROOT: bool = false;
    const PV: bool = true;
}

impl NodeKind for NonPv {
    const ROOT: bool = false;
    const PV: bool = false;
}
