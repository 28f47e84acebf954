//! The network built into the binary (`default.nnue`, or the file a build names),
//! loaded once, and the name `EvalFile` shows for it.

use super::{HIDDEN, MAGIC, Network};
use std::sync::OnceLock;

/// The network built into the binary, if this build has one.
pub fn embedded() -> Option<&'static Network> {
    static EMBEDDED: OnceLock<Option<Network>> = OnceLock::new();
    EMBEDDED
        .get_or_init(|| {
            EMBEDDED_BYTES.map(|bytes| {
                Network::from_bytes(bytes).expect("the embedded network is checked by a test")
            })
        })
        .as_ref()
}

/// The built-in network's name, as the `EvalFile` option shows it: `tabas-` and 32 bits
/// of a hash (FNV-1a) of its file, so that the name changes with the network, as
/// Stockfish's `nn-….nnue` does. No file of that name is read: the name stands for the
/// network inside the binary. `None` in a build without one.
pub fn embedded_name() -> Option<&'static str> {
    static NAME: OnceLock<Option<String>> = OnceLock::new();
    NAME.get_or_init(|| {
        EMBEDDED_BYTES.map(|bytes| {
            let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            });
            format!("tabas-{:08x}.nnue", hash >> 32)
        })
    })
    .as_deref()
}

/// The default network's file, in the binary: how it was made is in docs/network/
/// ("The network"). `None` here builds an engine without one (the hand-written
/// evaluation plays, and `Use NNUE` starts false).
#[cfg(not(tabas_evalfile))]
const EMBEDDED_BYTES: Option<&[u8]> = Some(include_bytes!("default.nnue"));
/// A build with `TABAS_EVALFILE` set (`make EVALFILE=…`, see `build.rs`) embeds that
/// file instead; the Makefile checks that this engine loads it before building.
#[cfg(tabas_evalfile)]
const EMBEDDED_BYTES: Option<&[u8]> = Some(include_bytes!(env!("TABAS_EVALFILE_PATH")));

/// The embedded file's hidden size (the little-endian `u32` after the magic) is the
/// build's `HIDDEN`, checked when compiling: a build with another width and the old
/// file fails here, not with a panic at every start.
const _: () = if let Some(bytes) = EMBEDDED_BYTES {
    let offset = MAGIC.len();
    assert!(
        bytes.len() >= offset + 4
            && u32::from_le_bytes([
                bytes[offset],
                bytes[offset + 1],
                bytes[offset + 2],
                bytes[offset + 3],
            ]) as usize
                == HIDDEN,
        "the embedded network's hidden size is not HIDDEN (src/nnue/embedded.rs)"
    );
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_network_loads_if_there_is_one() {
        assert_eq!(embedded().is_some(), EMBEDDED_BYTES.is_some());
        assert_eq!(embedded_name().is_some(), EMBEDDED_BYTES.is_some());
        if let Some(name) = embedded_name() {
            assert!(
                name.starts_with("tabas-") && name.ends_with(".nnue") && name.len() == 19,
                "{name}"
            );
        }
    }
}
