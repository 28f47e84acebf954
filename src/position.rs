//! `shakmaty::Chess` plus its Zobrist key, kept up to date move by move, and the
//! evaluation that judges it.
//!
//! Make is copy-make (shakmaty has no unmake): `Board::play` returns the child.
//! The key comes from shakmaty's own Zobrist tables, updated incrementally where
//! shakmaty can and recomputed where it cannot (castling, double pushes, …).
//! A board carries no network sums: the search keeps those along its path
//! (`nnue::AccumulatorStack`), so that a move copies as little as possible.

use crate::nnue::Network;
use crate::score::Score;
use crate::special_moves::{castling_destinations, en_passant_victim};
use shakmaty::fen::Fen;
use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, Move, Piece, Position,
    PositionErrorKinds, Role, Square, attacks,
};

#[derive(Clone, Debug)]
pub struct Board {
    pos: Chess,
    key: u64,
    /// The network that evaluates this position; `None`: the hand-written evaluation.
    network: Option<&'static Network>,
}

impl Board {
    /// `pos`, evaluated by the default evaluation (the built-in network, if any).
    pub fn new(pos: Chess) -> Board {
        Board::with_network(pos, crate::nnue::embedded())
    }

    /// `pos`, evaluated by `network` (`None`: the hand-written evaluation).
    pub fn with_network(pos: Chess, network: Option<&'static Network>) -> Board {
        let key = full_key(&pos);
        Board { pos, key, network }
    }

    /// This position, evaluated by `network` instead.
    pub fn evaluated_by(&self, network: Option<&'static Network>) -> Board {
        Board::with_network(self.pos.clone(), network)
    }

    /// The network that evaluates this position (`None`: the hand-written evaluation).
    #[inline]
    pub fn network(&self) -> Option<&'static Network> {
        self.network
    }

    /// The static evaluation for the side to move, in centipawns, from scratch (the
    /// search evaluates through its `AccumulatorStack` instead).
    pub fn evaluate(&self) -> Score {
        match self.network {
            Some(net) => net.score(
                &net.refresh(self.pos.board()),
                self.pos.board(),
                self.pos.turn(),
            ),
            None => crate::eval::evaluate(&self.pos),
        }
    }

    pub fn startpos() -> Board {
        Board::new(Chess::default())
    }

    #[inline]
    pub fn chess(&self) -> &Chess {
        &self.pos
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The position after the legal move `m`.
    ///
    /// The key is updated here for every move, with shakmaty's Zobrist numbers: the
    /// side to move, the pieces the move takes off and puts on, the castling rights
    /// it ends, and the en passant file (counted, as `EnPassantMode::Legal` says, only
    /// where a legal en passant capture exists). shakmaty's own update gives up on
    /// king moves, double pushes and castling rights, and recomputes the whole key.
    #[inline]
    pub fn play(&self, m: Move) -> Board {
        self.play_from_key(m, self.key_soon_after(m))
    }

    /// `play(m)`, where `key_soon_after` is `self.key_soon_after(m)`, already known.
    #[inline]
    pub fn play_from_key(&self, m: Move, key_soon_after: u64) -> Board {
        debug_assert_eq!(key_soon_after, self.key_soon_after(m));
        let mut pos = self.pos.clone();
        pos.play_unchecked(m);
        let mut key = Zobrist64(key_soon_after);
        let (before, after) = (self.pos.castles(), pos.castles());
        if before.castling_rights() != after.castling_rights() {
            for color in Color::ALL {
                for side in CastlingSide::ALL {
                    if before.has(color, side) != after.has(color, side) {
                        key ^= Zobrist64::zobrist_for_castling_right(color, side);
                    }
                }
            }
        }
        key ^= en_passant_key(&self.pos) ^ en_passant_key(&pos);
        Board {
            pos,
            key: key.0,
            network: self.network,
        }
    }

    /// The key of the position after the legal move `m`, but for the castling rights
    /// and the en passant file that `m` may change: where the table keeps the child,
    /// nearly always, known before the move is made (to ask the memory for it early).
    #[inline]
    pub fn key_soon_after(&self, m: Move) -> u64 {
        self.key ^ moved_key(self.pos.turn(), m).0
    }

    /// The position with the side to move passing (for null-move pruning).
    /// `None` when in check, where passing is not a legal position.
    pub fn play_null(&self) -> Option<Board> {
        let pos = self.pos.clone().swap_turn().ok()?;
        // Passing ends any en passant right; castling rights stay.
        let key =
            Zobrist64(self.key) ^ Zobrist64::zobrist_for_white_turn() ^ en_passant_key(&self.pos);
        Some(Board {
            key: key.0,
            pos,
            network: self.network,
        })
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.pos.is_check()
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.pos.halfmoves()
    }

    /// True when the side to move has a piece other than pawns and king:
    /// without one, zugzwang makes null-move pruning unsound.
    pub fn has_non_pawn_material(&self) -> bool {
        let board = self.pos.board();
        let ours = board.by_color(self.pos.turn());
        let pawns_and_kings = board.by_role(Role::Pawn) | board.by_role(Role::King);
        (ours & !pawns_and_kings).any()
    }
}

/// Whether the legal move `m` gives check, without making it (`play(m).in_check()`
/// costs a copy of the position; the search asks this before deciding whether a
/// move is worth making at all). shakmaty keeps its own version private.
///
/// After the move, the opponent's king is attacked by the moved piece from its new
/// square (direct check) or by a slider whose line the move opened (discovered
/// check; en passant removes two pawns from a line, castling moves the rook).
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let mut occupied = board.occupied();
    let mut ours = board.by_color(us);
    // (square the piece lands on, what it is there)
    let (landing, role) = match m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => {
            occupied = occupied.without(from).with(to);
            ours = ours.without(from);
            (to, promotion.unwrap_or(role))
        }
        Move::EnPassant { from, to } => {
            let captured = en_passant_victim(from, to);
            occupied = occupied.without(from).without(captured).with(to);
            ours = ours.without(from);
            (to, Role::Pawn)
        }
        Move::Castle { king: k, rook } => {
            let (king_to, rook_to) = castling_destinations(us, k, rook);
            occupied = occupied
                .without(k)
                .without(rook)
                .with(king_to)
                .with(rook_to);
            ours = ours.without(k).without(rook);
            (rook_to, Role::Rook)
        }
        Move::Put { role, to } => {
            occupied = occupied.with(to);
            (to, role)
        }
    };
    let moved = Piece { color: us, role };
    if attacks::attacks(landing, moved, occupied).contains(king) {
        return true;
    }
    // Discovered: any of our other sliders now sees the king.
    let diagonal = attacks::bishop_attacks(king, occupied) & board.bishops_and_queens();
    let straight = attacks::rook_attacks(king, occupied) & board.rooks_and_queens();
    ((diagonal | straight) & ours).any()
}

/// What a node needs to tell cheaply whether its moves give check: for each role,
/// the squares from which a piece of ours of that role attacks the opponent's king
/// (with today's occupancy), and our pieces that block one of our sliders' lines to
/// that king (moving one off the line uncovers a check). Built once per node; a
/// move then costs two bitboard lookups instead of [`gives_check`]'s attack
/// computation. Promotions, en passant and castling change more than one square's
/// occupancy, so for them it asks [`gives_check`].
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    king: Square,
    /// By `Role as usize - 1`.
    direct: [Bitboard; 6],
    discoverers: Bitboard,
}

impl CheckSquares {
    /// `None` when the opponent has no king (never in a legal position).
    pub fn new(pos: &Chess) -> Option<CheckSquares> {
        let board = pos.board();
        let us = pos.turn();
        let king = board.king_of(!us)?;
        let occupied = board.occupied();
        let diagonal = attacks::bishop_attacks(king, occupied);
        let straight = attacks::rook_attacks(king, occupied);
        let direct = [
            attacks::pawn_attacks(!us, king),
            attacks::knight_attacks(king),
            diagonal,
            straight,
            diagonal | straight,
            Bitboard::EMPTY,
        ];
        let ours = board.by_color(us);
        let discoverers = lone_blockers(board, king, ours, ours);
        Some(CheckSquares {
            king,
            direct,
            discoverers,
        })
    }

    /// Whether the legal move `m` of `pos` (the position this was built for) gives check.
    #[inline]
    pub fn gives_check(&self, pos: &Chess, m: Move) -> bool {
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => {
                self.direct[role as usize - 1].contains(to)
                    || (self.discoverers.contains(from) && !attacks::aligned(from, to, self.king))
            }
            _ => gives_check(pos, m),
        }
    }
}

/// The pieces of `blockers` that stand alone between `king` and one of the sliders of
/// `sliders` whose line runs through it: with the enemy's sliders, the pieces pinned to
/// `king`; with one's own against the enemy king, the pieces whose move uncovers check.
#[inline]
pub fn lone_blockers(
    board: &shakmaty::Board,
    king: Square,
    sliders: Bitboard,
    blockers: Bitboard,
) -> Bitboard {
    let snipers = ((attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
        | (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()))
        & sliders;
    let mut lone = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & board.occupied();
        if let Some(blocker) = between.single_square()
            && blockers.contains(blocker)
        {
            lone.add(blocker);
        }
    }
    lone
}

fn full_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// What `m`, played by `us`, changes in a key: the side to move, and the pieces it
/// takes off and puts on.
#[inline]
fn moved_key(us: Color, m: Move) -> Zobrist64 {
    let piece = |square, role: Role, color| Zobrist64::zobrist_for_piece(square, role.of(color));
    let turn = Zobrist64::zobrist_for_white_turn();
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let moved = turn ^ piece(from, role, us) ^ piece(to, promotion.unwrap_or(role), us);
            match capture {
                Some(captured) => moved ^ piece(to, captured, !us),
                None => moved,
            }
        }
        Move::EnPassant { from, to } => {
            turn ^ piece(from, Role::Pawn, us)
                ^ piece(to, Role::Pawn, us)
                ^ piece(en_passant_victim(from, to), Role::Pawn, !us)
        }
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castling_destinations(us, king, rook);
            turn ^ piece(king, Role::King, us)
                ^ piece(rook, Role::Rook, us)
                ^ piece(king_to, Role::King, us)
                ^ piece(rook_to, Role::Rook, us)
        }
        Move::Put { .. } => unreachable!("no drops in standard chess"),
    }
}

/// What the en passant square adds to `pos`'s key: its file's number where a legal en
/// passant capture exists (as `full_key` counts it), else nothing.
#[inline]
fn en_passant_key(pos: &Chess) -> Zobrist64 {
    match pos.maybe_ep_square() {
        None => Zobrist64(0),
        Some(_) => pos
            .ep_square(EnPassantMode::Legal)
            .map_or(Zobrist64(0), |square| {
                Zobrist64::zobrist_for_en_passant_file(square.file())
            }),
    }
}

/// A FEN in any castling notation (KQkq, Shredder HAha, X-FEN).
pub fn parse_fen(text: &str, mode: CastlingMode) -> Result<Chess, String> {
    let fen = Fen::from_ascii(text.trim().as_bytes())
        .map_err(|e| format!("bad FEN '{}': {e}", crate::text::excerpt(text.trim(), 100)))?;
    fen.into_position::<Chess>(mode)
        .map_err(|e| format!("bad FEN '{}': {e}", crate::text::excerpt(text.trim(), 100)))
}

/// The oddities of a FEN that still leave a position Tabas can play, as Stockfish
/// plays it: stray castling rights or an en-passant square are dropped, too much
/// material or an impossible check are kept. Anything else (a missing king, the
/// side not to move in check, pawns on the back rank…) makes no position.
const TOLERATED: PositionErrorKinds = PositionErrorKinds::INVALID_CASTLING_RIGHTS
    .union(PositionErrorKinds::INVALID_EP_SQUARE)
    .union(PositionErrorKinds::TOO_MUCH_MATERIAL)
    .union(PositionErrorKinds::IMPOSSIBLE_CHECK);

/// A FEN as `parse_fen` reads it, except that the tolerated oddities (`TOLERATED`)
/// are accepted; the second value says what was odd, for a warning (`None` when
/// nothing was).
#[allow(clippy::result_large_err)] // shakmaty's own error, consumed where it is made
pub fn parse_fen_tolerant(
    text: &str,
    mode: CastlingMode,
) -> Result<(Chess, Option<String>), String> {
    let shown = || crate::text::excerpt(text.trim(), 100);
    let fen = Fen::from_ascii(text.trim().as_bytes())
        .map_err(|e| format!("bad FEN '{}': {e}", shown()))?;
    match fen.into_position::<Chess>(mode) {
        Ok(pos) => Ok((pos, None)),
        Err(e) if TOLERATED.contains(e.kinds()) => {
            let kinds = e.kinds();
            let mut odd = Vec::new();
            for (kind, what) in [
                (
                    PositionErrorKinds::INVALID_CASTLING_RIGHTS,
                    "castling rights without their king and rook (dropped)",
                ),
                (
                    PositionErrorKinds::INVALID_EP_SQUARE,
                    "an en-passant square no pawn can take on (dropped)",
                ),
                (
                    PositionErrorKinds::TOO_MUCH_MATERIAL,
                    "more material than a game can have",
                ),
                (
                    PositionErrorKinds::IMPOSSIBLE_CHECK,
                    "a check no legal move could give",
                ),
            ] {
                if kinds.contains(kind) {
                    odd.push(what);
                }
            }
            // Each `ignore_…` drops one kind; the position comes out once none is left.
            let pos = e
                .ignore_invalid_castling_rights()
                .or_else(|e| e.ignore_invalid_ep_square())
                .or_else(|e| e.ignore_too_much_material())
                .or_else(|e| e.ignore_impossible_check())
                .map_err(|e| format!("bad FEN '{}': {e}", shown()))?;
            Ok((
                pos,
                Some(format!("FEN '{}' has {}", shown(), odd.join(", "))),
            ))
        }
        Err(e) => Err(format!("bad FEN '{}': {e}", shown())),
    }
}

/// The first `per_suite` positions of the standard and of the Chess960 perft suite
/// (`perft/perftsuite.epd`, `perft/fischer.epd`) that shakmaty accepts, for tests that
/// walk many varied positions (castling in both modes, en passant, promotions).
#[cfg(test)]
pub(crate) fn perft_suite_positions(per_suite: usize) -> Vec<Chess> {
    let suites = [
        (
            include_str!("../perft/perftsuite.epd"),
            CastlingMode::Standard,
        ),
        (include_str!("../perft/fischer.epd"), CastlingMode::Chess960),
    ];
    suites
        .into_iter()
        .flat_map(|(suite, mode)| {
            suite
                .lines()
                .filter(|l| !l.trim().is_empty())
                .take(per_suite)
                // (A few suite positions are ones shakmaty refuses: skipped.)
                .filter_map(move |line| parse_fen(line.split(';').next().unwrap(), mode).ok())
        })
        .collect()
}

/// `fen` as a position of standard chess, for tests (a bad FEN panics with its reason).
#[cfg(test)]
pub(crate) fn pos(fen: &str) -> Chess {
    parse_fen(fen, CastlingMode::Standard).unwrap_or_else(|e| panic!("{e}"))
}

/// `pos` with the colours swapped and the board flipped (castling rights and en
/// passant with it): the same position for the other side, for symmetry tests.
#[cfg(test)]
pub(crate) fn mirrored(pos: &Chess) -> Chess {
    pos.to_setup(EnPassantMode::Legal)
        .into_mirrored()
        .position(CastlingMode::Chess960)
        .expect("the mirror of a legal position is legal")
}

/// `pos` (without castling rights) with files a↔h swapped, en passant with them: a
/// position of standard chess exactly as good, for symmetry tests.
#[cfg(test)]
pub(crate) fn horizontal_mirror(pos: &Chess) -> Chess {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    assert!(!pos.castles().any(), "castling has no mirror image");
    setup.board.flip_horizontal();
    setup.ep_square = setup.ep_square.map(Square::flip_horizontal);
    setup
        .position(CastlingMode::Standard)
        .expect("the mirror image of a legal position is legal")
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn walk(board: &Board, depth: u32) {
        assert_eq!(
            board.key(),
            full_key(board.chess()),
            "incremental key drifted"
        );
        if depth == 0 {
            return;
        }
        for m in board.chess().legal_moves() {
            walk(&board.play(m), depth - 1);
        }
    }

    /// `gives_check` and `CheckSquares` agree with making the move, on every move of
    /// every position up to `depth` plies below `board`.
    fn check_gives_check(board: &Board, depth: u32) -> u64 {
        let mut checks = 0;
        let squares = CheckSquares::new(board.chess()).expect("a king");
        for m in board.chess().legal_moves() {
            let child = board.play(m);
            assert_eq!(
                gives_check(board.chess(), m),
                child.in_check(),
                "{m:?} in {}",
                Fen::from_position(board.chess(), EnPassantMode::Legal)
            );
            assert_eq!(
                squares.gives_check(board.chess(), m),
                child.in_check(),
                "CheckSquares: {m:?} in {}",
                Fen::from_position(board.chess(), EnPassantMode::Legal)
            );
            checks += child.in_check() as u64;
            if depth > 1 {
                checks += check_gives_check(&child, depth - 1);
            }
        }
        checks
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let mut checks = 0;
        for pos in perft_suite_positions(60) {
            checks += check_gives_check(&Board::new(pos), 3);
        }
        // Direct, discovered, en passant, promotion and castling checks all occur.
        assert!(checks > 10_000, "only {checks} checks seen");
    }

    #[test]
    fn gives_check_in_special_cases() {
        for (fen, uci) in [
            // En passant opens the rank to the king (discovered check by the rook).
            ("8/8/8/K2pP2k/8/8/8/8 w - d6 0 1", "e5d6"),
            ("8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "e5d6"),
            // Castling checks with the rook.
            ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"),
            // Underpromotion to a knight checks.
            ("8/4P3/8/3k4/8/8/8/K7 w - - 0 1", "e7e8n"),
            // Discovered check by a bishop behind a moving knight.
            ("7k/8/8/8/8/2N5/8/B3K3 w - - 0 1", "c3e4"),
        ] {
            let board = Board::new(parse_fen(fen, CastlingMode::Standard).unwrap());
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(board.chess())
                .unwrap();
            assert_eq!(
                gives_check(board.chess(), m),
                board.play(m).in_check(),
                "{fen} {uci}"
            );
        }
    }

    #[test]
    fn incremental_key_matches_full_key() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            walk(&Board::new(pos), 3);
        }
        // Castling in both modes, en passant, promotions: two plies from each suite
        // position, and their null moves.
        for pos in crate::position::perft_suite_positions(usize::MAX) {
            let board = Board::new(pos);
            walk(&board, 2);
            if let Some(null) = board.play_null() {
                assert_eq!(null.key(), full_key(null.chess()), "null move");
            }
        }
    }

    #[test]
    fn null_move_flips_side_and_key() {
        let b = Board::startpos();
        let n = b.play_null().unwrap();
        assert_ne!(n.turn(), b.turn());
        assert_ne!(n.key(), b.key());
        assert_eq!(n.key(), full_key(n.chess()));
    }
}
