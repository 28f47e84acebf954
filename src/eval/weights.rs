//! The evaluation's weights: (midgame, endgame) centipawns from White's point of
//! view, blended by the game phase (`eval/mod.rs`).
//!
//! Generated: `tabas tune` writes this whole file, so edit it by hand only to set
//! starting values, keeping the layout. Names, order and doc comments come from
//! `layout!` in `src/eval/layout.rs`; a test checks that writing these values
//! back gives this file byte for byte.
//!
//! Source: PeSTO's material and tables (Ronald Friederich, Chess Programming Wiki); hand-set terms.

use super::layout::{Pair, SquareTable};

/// Material, in `Role::ALL` order (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [Pair; 6] = [
    (  82,   94), ( 337,  281), ( 365,  297), ( 477,  512),
    (1025,  936), (   0,    0),
];

/// Pawns: the first and last rows are never used.
pub const PAWN: SquareTable = SquareTable {
    mg: [
           0,    0,    0,    0,    0,    0,    0,    0,
          98,  134,   61,   95,   68,  126,   34,  -11,
          -6,    7,   26,   31,   65,   56,   25,  -20,
         -14,   13,    6,   21,   23,   12,   17,  -23,
         -27,   -2,   -5,   12,   17,    6,   10,  -25,
         -26,   -4,   -4,  -10,    3,    3,   33,  -12,
         -35,   -1,  -20,  -23,  -15,   24,   38,  -22,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    eg: [
           0,    0,    0,    0,    0,    0,    0,    0,
         178,  173,  158,  134,  147,  132,  165,  187,
          94,  100,   85,   67,   56,   53,   82,   84,
          32,   24,   13,    5,   -2,    4,   17,   17,
          13,    9,   -3,   -7,   -7,   -8,    3,   -1,
           4,    7,   -6,    1,    0,   -5,   -1,   -8,
          13,    8,    8,   10,   13,    0,    2,   -7,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
};

/// Knights.
pub const KNIGHT: SquareTable = SquareTable {
    mg: [
        -167,  -89,  -34,  -49,   61,  -97,  -15, -107,
         -73,  -41,   72,   36,   23,   62,    7,  -17,
         -47,   60,   37,   65,   84,  129,   73,   44,
          -9,   17,   19,   53,   37,   69,   18,   22,
         -13,    4,   16,   13,   28,   19,   21,   -8,
         -23,   -9,   12,   10,   19,   17,   25,  -16,
         -29,  -53,  -12,   -3,   -1,   18,  -14,  -19,
        -105,  -21,  -58,  -33,  -17,  -28,  -19,  -23,
    ],
    eg: [
         -58,  -38,  -13,  -28,  -31,  -27,  -63,  -99,
         -25,   -8,  -25,   -2,   -9,  -25,  -24,  -52,
         -24,  -20,   10,    9,   -1,   -9,  -19,  -41,
         -17,    3,   22,   22,   22,   11,    8,  -18,
         -18,   -6,   16,   25,   16,   17,    4,  -18,
         -23,   -3,   -1,   15,   10,   -3,  -20,  -22,
         -42,  -20,  -10,   -5,   -2,  -20,  -23,  -44,
         -29,  -51,  -23,  -15,  -22,  -18,  -50,  -64,
    ],
};

/// Bishops.
pub const BISHOP: SquareTable = SquareTable {
    mg: [
         -29,    4,  -82,  -37,  -25,  -42,    7,   -8,
         -26,   16,  -18,  -13,   30,   59,   18,  -47,
         -16,   37,   43,   40,   35,   50,   37,   -2,
          -4,    5,   19,   50,   37,   37,    7,   -2,
          -6,   13,   13,   26,   34,   12,   10,    4,
           0,   15,   15,   15,   14,   27,   18,   10,
           4,   15,   16,    0,    7,   21,   33,    1,
         -33,   -3,  -14,  -21,  -13,  -12,  -39,  -21,
    ],
    eg: [
         -14,  -21,  -11,   -8,   -7,   -9,  -17,  -24,
          -8,   -4,    7,  -12,   -3,  -13,   -4,  -14,
           2,   -8,    0,   -1,   -2,    6,    0,    4,
          -3,    9,   12,    9,   14,   10,    3,    2,
          -6,    3,   13,   19,    7,   10,   -3,   -9,
         -12,   -3,    8,   10,   13,    3,   -7,  -15,
         -14,  -18,   -7,   -1,    4,   -9,  -15,  -27,
         -23,   -9,  -23,   -5,   -9,  -16,   -5,  -17,
    ],
};

/// Rooks.
pub const ROOK: SquareTable = SquareTable {
    mg: [
          32,   42,   32,   51,   63,    9,   31,   43,
          27,   32,   58,   62,   80,   67,   26,   44,
          -5,   19,   26,   36,   17,   45,   61,   16,
         -24,  -11,    7,   26,   24,   35,   -8,  -20,
         -36,  -26,  -12,   -1,    9,   -7,    6,  -23,
         -45,  -25,  -16,  -17,    3,    0,   -5,  -33,
         -44,  -16,  -20,   -9,   -1,   11,   -6,  -71,
         -19,  -13,    1,   17,   16,    7,  -37,  -26,
    ],
    eg: [
          13,   10,   18,   15,   12,   12,    8,    5,
          11,   13,   13,   11,   -3,    3,    8,    3,
           7,    7,    7,    5,    4,   -3,   -5,   -3,
           4,    3,   13,    1,    2,    1,   -1,    2,
           3,    5,    8,    4,   -5,   -6,   -8,  -11,
          -4,    0,   -5,   -1,   -7,  -12,   -8,  -16,
          -6,   -6,    0,    2,   -9,   -9,  -11,   -3,
          -9,    2,    3,   -1,   -5,  -13,    4,  -20,
    ],
};

/// Queens.
pub const QUEEN: SquareTable = SquareTable {
    mg: [
         -28,    0,   29,   12,   59,   44,   43,   45,
         -24,  -39,   -5,    1,  -16,   57,   28,   54,
         -13,  -17,    7,    8,   29,   56,   47,   57,
         -27,  -27,  -16,  -16,   -1,   17,   -2,    1,
          -9,  -26,   -9,  -10,   -2,   -4,    3,   -3,
         -14,    2,  -11,   -2,   -5,    2,   14,    5,
         -35,   -8,   11,    2,    8,   15,   -3,    1,
          -1,  -18,   -9,   10,  -15,  -25,  -31,  -50,
    ],
    eg: [
          -9,   22,   22,   27,   27,   19,   10,   20,
         -17,   20,   32,   41,   58,   25,   30,    0,
         -20,    6,    9,   49,   47,   35,   19,    9,
           3,   22,   24,   45,   57,   40,   57,   36,
         -18,   28,   19,   47,   31,   34,   39,   23,
         -16,  -27,   15,    6,    9,   17,   10,    5,
         -22,  -23,  -30,  -16,  -16,  -23,  -36,  -32,
         -33,  -28,  -22,  -43,   -5,  -32,  -20,  -41,
    ],
};

/// The king.
pub const KING: SquareTable = SquareTable {
    mg: [
         -65,   23,   16,  -15,  -56,  -34,    2,   13,
          29,   -1,  -20,   -7,   -8,   -4,  -38,  -29,
          -9,   24,    2,  -16,  -20,    6,   22,  -22,
         -17,  -20,  -12,  -27,  -30,  -25,  -14,  -36,
         -49,   -1,  -27,  -39,  -46,  -44,  -33,  -51,
         -14,  -14,  -22,  -46,  -44,  -30,  -15,  -27,
           1,    7,   -8,  -64,  -43,  -16,    9,    8,
         -15,   36,   12,  -54,    8,  -28,   24,   14,
    ],
    eg: [
         -74,  -35,  -18,  -18,  -11,   15,    4,  -17,
         -12,   17,   14,   17,   17,   38,   23,   11,
          10,   17,   23,   15,   20,   45,   44,   13,
          -8,   22,   24,   27,   26,   33,   26,    3,
         -18,   -4,   21,   24,   27,   23,    9,  -11,
         -19,   -3,   11,   21,   23,   16,    7,   -9,
         -27,  -11,    4,   13,   14,    4,   -5,  -17,
         -53,  -34,  -21,  -11,  -28,  -14,  -24,  -43,
    ],
};

/// Knight mobility: by the number of safe squares attacked (not ours, not
/// attacked by an enemy pawn).
pub const KNIGHT_MOBILITY: [Pair; 9] = [
    ( -16,  -16), ( -12,  -12), (  -8,   -8), (  -4,   -4),
    (   0,    0), (   4,    4), (   8,    8), (  12,   12),
    (  16,   16),
];

/// Bishop mobility, by safe squares attacked.
pub const BISHOP_MOBILITY: [Pair; 14] = [
    ( -30,  -30), ( -25,  -25), ( -20,  -20), ( -15,  -15),
    ( -10,  -10), (  -5,   -5), (   0,    0), (   5,    5),
    (  10,   10), (  15,   15), (  20,   20), (  25,   25),
    (  30,   30), (  35,   35),
];

/// Rook mobility, by safe squares attacked.
pub const ROOK_MOBILITY: [Pair; 15] = [
    ( -14,  -28), ( -12,  -24), ( -10,  -20), (  -8,  -16),
    (  -6,  -12), (  -4,   -8), (  -2,   -4), (   0,    0),
    (   2,    4), (   4,    8), (   6,   12), (   8,   16),
    (  10,   20), (  12,   24), (  14,   28),
];

/// Queen mobility, by safe squares attacked.
pub const QUEEN_MOBILITY: [Pair; 28] = [
    ( -13,  -26), ( -12,  -24), ( -11,  -22), ( -10,  -20),
    (  -9,  -18), (  -8,  -16), (  -7,  -14), (  -6,  -12),
    (  -5,  -10), (  -4,   -8), (  -3,   -6), (  -2,   -4),
    (  -1,   -2), (   0,    0), (   1,    2), (   2,    4),
    (   3,    6), (   4,    8), (   5,   10), (   6,   12),
    (   7,   14), (   8,   16), (   9,   18), (  10,   20),
    (  11,   22), (  12,   24), (  13,   26), (  14,   28),
];

/// A pawn no enemy pawn can stop or take and no own pawn blocks, by rank from
/// its own side (index 1 = second rank; 0 and 7 are never used).
pub const PASSED: [Pair; 8] = [
    (   0,    0), (   0,    4), (   2,    8), (   5,   16),
    (  12,   30), (  25,   50), (  40,   70), (   0,    0),
];

/// Each pawn beyond the first on a file.
pub const DOUBLED: Pair = (-5, -15);

/// A pawn with no friendly pawn on a neighbouring file.
pub const ISOLATED: Pair = (-8, -8);

/// Two bishops or more.
pub const BISHOP_PAIR: Pair = (25, 45);

/// A rook on a file without pawns...
pub const ROOK_OPEN_FILE: Pair = (20, 5);

/// ...or without pawns of its own side.
pub const ROOK_HALF_OPEN_FILE: Pair = (10, 3);

/// Attacks on the enemy king's zone (its square, the squares around it and the
/// three squares two ranks in front of it), per attacked zone square, by the
/// attacking role: knight, bishop, rook, queen.
pub const KING_ZONE_ATTACKS: [Pair; 4] = [
    (   0,    0), (   0,    0), (   0,    0), (   0,    0),
];

/// The number of our pieces attacking the enemy king's zone (7: seven or more).
pub const KING_ATTACKERS: [Pair; 8] = [
    (   0,    0), (   0,    0), (   0,    0), (   0,    0),
    (   0,    0), (   0,    0), (   0,    0), (   0,    0),
];

/// Our king's shelter: on each file at and beside the king, the nearest own pawn
/// in front of it, by its distance in ranks (0: no such pawn).
pub const PAWN_SHELTER: [Pair; 7] = [
    (   0,    0), (   0,    0), (   0,    0), (   0,    0),
    (   0,    0), (   0,    0), (   0,    0),
];

/// The storm on our king: on each file at and beside the king, the nearest enemy
/// pawn in front of it, by its distance in ranks (0: no such pawn).
pub const PAWN_STORM: [Pair; 7] = [
    (   0,    0), (   0,    0), (   0,    0), (   0,    0),
    (   0,    0), (   0,    0), (   0,    0),
];

/// Our pawn attacks an enemy knight, bishop, rook or queen.
pub const PAWN_THREAT: [Pair; 4] = [
    (   0,    0), (   0,    0), (   0,    0), (   0,    0),
];

/// Our knight or bishop attacks an enemy rook or queen.
pub const MINOR_THREAT: [Pair; 2] = [
    (   0,    0), (   0,    0),
];

/// Our rook attacks an enemy queen.
pub const ROOK_THREAT: Pair = (0, 0);

/// An enemy pawn, knight, bishop, rook or queen that we attack and no enemy
/// piece defends.
pub const HANGING: [Pair; 5] = [
    (   0,    0), (   0,    0), (   0,    0), (   0,    0),
    (   0,    0),
];
