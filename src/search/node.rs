//! The kinds of node, as types: the search is compiled once per kind, so a rule that
//! depends on the kind costs nothing where it does not apply.
//!
//! * the root: searches the root move list and keeps the line it found;
//! * PV nodes: on the principal variation, searched with an open window; exact
//!   scores wanted, so no table cutoffs and no null move;
//! * non-PV nodes: null-window searches, where every pruning rule may apply.
//!
//! Each kind also carries the search's mode (see `Mode`): whether the developer
//! switches are read, or all taken to be on. A node's children are of the same mode:
//! `NT::Pv` and `NT::NonPv` name them.

use std::marker::PhantomData;

/// Whether the search reads the developer switches (`SearchConfig`'s booleans).
///
/// * `Play`: every switch is on and none is read: a rule's `M::on(self.config.lmr)`
///   is the constant `true`, and the compiler removes the load and the branch. The
///   search of every game and of `bench`.
/// * `Dev`: each switch is read where its rule stands (`tabas lab`, the `Debug_*`
///   options of `tabas --dev`).
///
/// Both are the same source, compiled twice; the root picks one per search
/// (`SearchConfig::all_switches_on`).
pub trait Mode {
    const READS_SWITCHES: bool;

    /// Whether the rule of this `switch` applies.
    #[inline(always)]
    fn on(switch: bool) -> bool {
        !Self::READS_SWITCHES || switch
    }
}

/// Every switch on, none read.
pub struct Play;
/// Every switch read.
pub struct Dev;

impl Mode for Play {
    const READS_SWITCHES: bool = false;
}

impl Mode for Dev {
    const READS_SWITCHES: bool = true;
}

pub trait NodeKind {
    const ROOT: bool;
    const PV: bool;
    /// Whether the switches are read (the same for the whole search).
    type Mode: Mode;
    /// The PV and non-PV children of such a node (the same mode).
    type Pv: NodeKind<Mode = Self::Mode>;
    type NonPv: NodeKind<Mode = Self::Mode>;
}

pub struct Root<M>(PhantomData<M>);
pub struct Pv<M>(PhantomData<M>);
pub struct NonPv<M>(PhantomData<M>);

impl<M: Mode> NodeKind for Root<M> {
    const ROOT: bool = true;
    const PV: bool = true;
    type Mode = M;
    type Pv = Pv<M>;
    type NonPv = NonPv<M>;
}

impl<M: Mode> NodeKind for Pv<M> {
    const ROOT: bool = false;
    const PV: bool = true;
    type Mode = M;
    type Pv = Pv<M>;
    type NonPv = NonPv<M>;
}

impl<M: Mode> NodeKind for NonPv<M> {
    const ROOT: bool = false;
    const PV: bool = false;
    type Mode = M;
    type Pv = Pv<M>;
    type NonPv = NonPv<M>;
}
