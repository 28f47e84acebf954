//! The evaluation's weights: (midgame, endgame) centipawns from White's point of
//! view, blended by the game phase (`eval/mod.rs`).
//!
//! Generated: `tabas tune` writes this whole file, so edit it by hand only to set
//! starting values, keeping the layout. Names, order and doc comments come from
//! `layout!` in `src/eval/layout.rs`; a test checks that writing these values
//! back gives this file byte for byte.
//!
//! Source: `tabas tune --data data/selfplay-1 --threads 1 --out /tmp/w2.rs`: epoch 945, K = 0.005882, training loss 0.025512, validation loss 0.025556

use super::pair::{Pair, SquareTable};

/// Material, in `Role::ALL` order (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [Pair; 6] = [
    (  90,   92), ( 401,  230), ( 423,  240), ( 577,  435),
    (1431,  618), (   0,    0),
];

/// Pawns: the first and last rows are never used.
pub const PAWN: SquareTable = SquareTable {
    mg: [
           0,    0,    0,    0,    0,    0,    0,    0,
         202,  117,    6,   58,   33,  113,  -68,   79,
         -13,   18,   43,   37,   51,   27,    1,  -15,
         -11,   13,   20,   33,   17,    5,   11,  -26,
         -18,    2,    8,   18,   14,   -1,    3,  -25,
         -14,    0,    1,    0,    9,    4,   28,  -17,
         -21,    7,   -6,   -6,   -5,   21,   38,  -24,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
    eg: [
           0,    0,    0,    0,    0,    0,    0,    0,
         105,  152,  161,  144,  143,  151,  186,  139,
          68,   70,   64,   33,   21,   39,   58,   69,
          46,   41,   34,   27,   10,   18,   17,   31,
          26,   10,    5,   -5,   -4,    9,    0,    9,
           7,    9,    8,    2,   14,    9,   -7,    1,
          23,    8,   17,   23,   25,    7,    4,    1,
           0,    0,    0,    0,    0,    0,    0,    0,
    ],
};

/// Knights.
pub const KNIGHT: SquareTable = SquareTable {
    mg: [
        -176,  -43, -201, -123,  249, -216,   43,  -69,
         -70,   32,   28,   57,   33,   27,  -49,  -14,
           5,   26,  -14,   57,   57,  113,   18,   57,
          30,    8,   13,   24,   27,   57,    2,   49,
         -22,   25,   20,   17,   14,   10,   25,   -3,
         -21,  -19,   -5,    9,   37,   11,   20,    4,
         -46,  -43,   -3,    4,    5,   11,  -28,    1,
         -47,  -17,  -60,  -11,    9,  -14,  -14,   25,
    ],
    eg: [
         -35,  -26,   -3,   10,  -70,    8,  -46,  -79,
         -13,  -41,  -17,  -14,   -4,  -19,    3,  -37,
         -23,  -11,   14,    0,   -7,  -21,   -3,  -13,
         -30,  -14,   30,   20,   18,  -10,    7,  -27,
         -18,   -5,   22,    4,   16,   20,  -19,  -30,
         -28,  -19,    0,   15,   -1,  -12,  -10,   -5,
         -10,  -21,  -33,  -20,   -6,  -16,  -14,  -31,
        -112,  -49,   -5,  -29,  -22,  -30,  -34,  -77,
    ],
};

/// Bishops.
pub const BISHOP: SquareTable = SquareTable {
    mg: [
         -60, -222,   85, -191,   41,  -43,  -43,   32,
         -16,  -16,    7,  -28,  -30,   62,   41,   50,
           0,   11,   52,   31,   92,   14,   21,    2,
           9,   16,  -15,   63,   31,   19,   18,   24,
          17,   17,   23,   26,   28,    6,  -14,   56,
          -9,   35,   17,    9,    3,   23,   21,   10,
          42,   12,    6,   -1,    6,   27,   28,    5,
         -32,   38,  -14,  -14,  -11,  -12,  -78,  -11,
    ],
    eg: [
          -9,   32,  -15,   28,  -43,   12,   11,   23,
          -6,    4,   13,   -7,   20,  -25,  -18,  -58,
          -8,    2,  -16,   14,  -31,   -4,  -22,   10,
         -14,   -1,   39,   -2,   24,   17,    4,   -4,
         -20,   -5,   -4,   21,    5,    9,    9,  -22,
         -20,   -4,    3,   -7,   20,  -11,  -13,  -12,
         -33,  -21,    1,    3,    3,   -9,  -19,  -43,
           5,  -15,  -16,  -14,  -11,  -11,  -16,  -13,
    ],
};

/// Rooks.
pub const ROOK: SquareTable = SquareTable {
    mg: [
          36,   22,   15,   73,   90,   24,  151,   35,
          24,   21,   54,  119,   99,  106,   30,   30,
           8,   30,   22,   37,   60,  -13,   20,  -37,
         -27,   -3,    5,   -5,   27,   22,   27,    6,
         -46,  -33,  -36,    5,   -7,  -43,    9,  -31,
         -49,  -26,  -27,  -39,    0,   -6,   -8,   -9,
         -29,   -9,  -45,   -9,  -16,    0,   31,  -82,
         -23,  -26,  -11,    0,    5,    1,  -27,   -4,
    ],
    eg: [
          15,   12,   25,    9,  -10,    6,  -27,    7,
          10,   17,   10,  -18,  -20,  -14,   -8,   26,
          13,    8,    8,    1,  -27,   19,   -3,   25,
          14,   -3,   14,   10,   11,   11,    5,   12,
          12,   14,    6,    5,    6,   11,    3,    9,
           1,  -15,   -1,    9,   -6,  -16,    8,    0,
          -3,  -10,    8,  -21,  -10,  -21,  -26,    4,
          -4,    2,    2,  -10,   -2,  -21,   -5,  -20,
    ],
};

/// Queens.
pub const QUEEN: SquareTable = SquareTable {
    mg: [
         -18,   10,  -47,   30,   65,   39,    5,  -29,
          14,  -15,  -14,   49,   -3,   -7,   -7,   27,
         -31,   11,  -30,   52,   12,   39,   55,   32,
         -29,   -1,    5,   -9,   -8,    0,   -2,   -7,
           1,  -26,  -10,  -12,   -4,   -2,    9,  -16,
         -34,   11,  -10,    9,    5,   -2,   19,    8,
          21,   -6,   14,   16,   22,   19,   22,  -31,
         -28,    7,   -8,    7,    5,  -52,  -23,   15,
    ],
    eg: [
          35,    4,   78,   50,   18,  -26,   14,   70,
         -14,   34,   43,   51,   45,   46,   29,   40,
          21,   18,   87,   22,   65,   45,   33,   -5,
          29,  -12,  -12,   82,   70,   69,   25,   24,
          14,   28,   24,   56,   46,   19,   36,   12,
          -9,  -61,   -3,   -4,  -22,   18,  -30,    4,
         -60,  -16,  -59,  -46,  -52,  -65,  -91,  -23,
         -14,   -6,  -40,  -42,  -84,   20,  -22,  -13,
    ],
};

/// The king.
pub const KING: SquareTable = SquareTable {
    mg: [
        -329,  228, -166,  -35,  228,  229,   78,   90,
         101,   21,   -1,   10,  -80,  155,   31,   -8,
         -97, -105, -117, -172,  -95,  110,  212,  -21,
         -45,   11,  -40, -173, -144,  -58,  -53,  -28,
         -38,   -3,  -72,  -28, -112,  -34,  -33,  -39,
         -12,   40,  -66,  -41,  -47,  -27,   20,  -48,
          40,  -11,  -21,  -55,  -38,   -1,   30,   16,
         -60,    9,   -8,  -74,  -17,  -33,   21,   26,
    ],
    eg: [
          75,   -1,   79,   55,  -45,  -44,  -15, -142,
         -16,   42,   54,   27,   42,  -16,   18,  -27,
          26,   56,   59,   76,   41,  -21,  -61,    4,
          14,   36,   42,   48,   43,   17,   23,   -5,
         -23,   -4,   29,   19,   30,   20,   14,  -29,
         -45,  -19,    9,    9,   17,    9,  -18,  -23,
         -23,   -3,   -8,    2,    3,   -5,  -18,  -44,
           6,  -24,  -10,   -2,  -29,  -20,  -31,  -79,
    ],
};

/// Knight mobility: by the number of safe squares attacked (not ours, not
/// attacked by an enemy pawn).
pub const KNIGHT_MOBILITY: [Pair; 9] = [
    ( -37,  -67), ( -19,  -22), ( -11,    5), (  -4,   14),
    (   2,   22), (   5,   24), (  10,   22), (  20,   14),
    (  34,   -8),
];

/// Bishop mobility, by safe squares attacked.
pub const BISHOP_MOBILITY: [Pair; 14] = [
    ( -32,  -61), ( -16,  -37), (  -9,  -14), (  -6,   -4),
    (  -5,   11), (   4,   15), (   1,   16), (   6,   23),
    (   4,   22), (   6,   25), (   9,   20), (  19,   21),
    (  99,  -10), ( -46,   14),
];

/// Rook mobility, by safe squares attacked.
pub const ROOK_MOBILITY: [Pair; 15] = [
    ( -44,  -58), ( -28,  -41), ( -30,  -15), ( -25,   -4),
    ( -21,    3), ( -21,   11), ( -17,   15), ( -14,   12),
    ( -12,   20), ( -12,   26), (   0,   24), (  -4,   25),
    (   8,   21), (   2,   23), ( 216,  -65),
];

/// Queen mobility, by safe squares attacked.
pub const QUEEN_MOBILITY: [Pair; 28] = [
    ( -68, -153), ( -65, -147), ( -80,  -13), ( -75,  -29),
    ( -76,   13), ( -73,   34), ( -68,   39), ( -71,   76),
    ( -64,   62), ( -66,   77), ( -63,   54), ( -64,   84),
    ( -64,   81), ( -59,   83), ( -59,   97), ( -40,   82),
    ( -44,   93), ( -47,   90), ( -36,   80), ( -11,   59),
    (  43,   19), (  53,   -1), ( 166,  -68), ( 347, -174),
    ( 215, -109), ( 358, -203), ( -58,  -22), (  73, -176),
];

/// A pawn no enemy pawn can stop or take and no own pawn blocks, by rank from
/// its own side (index 1 = second rank; 0 and 7 are never used).
pub const PASSED: [Pair; 8] = [
    (   0,    0), (  -1,   18), (   1,    8), ( -11,   34),
    (  12,   41), (  26,   80), (  53,   32), (   0,    0),
];

/// Each pawn beyond the first on a file.
pub const DOUBLED: Pair = (-6, -21);

/// A pawn with no friendly pawn on a neighbouring file.
pub const ISOLATED: Pair = (-10, -12);

/// Two bishops or more.
pub const BISHOP_PAIR: Pair = (26, 47);

/// A rook on a file without pawns...
pub const ROOK_OPEN_FILE: Pair = (38, 2);

/// ...or without pawns of its own side.
pub const ROOK_HALF_OPEN_FILE: Pair = (20, 9);

/// Attacks on the enemy king's zone (its square, the squares around it and the
/// three squares two ranks in front of it), per attacked zone square, by the
/// attacking role: knight, bishop, rook, queen.
pub const KING_ZONE_ATTACKS: [Pair; 4] = [
    (   6,   -1), (   6,   -4), (   3,   -3), (   3,   12),
];

/// The number of our pieces attacking the enemy king's zone (7: seven or more).
pub const KING_ATTACKERS: [Pair; 8] = [
    (  -1,   -3), (  -9,   -5), (  -4,    0), (   5,   16),
    (  45,  -22), (  15,   24), (  48,    7), (   0,    0),
];

/// Our king's shelter: on each file at and beside the king, the nearest own pawn
/// in front of it, by its distance in ranks (0: no such pawn).
pub const PAWN_SHELTER: [Pair; 7] = [
    (  -9,    4), (  11,   -1), (   7,   -3), (   7,   -8),
    (   9,  -12), (  15,   -9), ( -79,   16),
];

/// The storm on our king: on each file at and beside the king, the nearest enemy
/// pawn in front of it, by its distance in ranks (0: no such pawn).
pub const PAWN_STORM: [Pair; 7] = [
    (  -8,   -8), (  43,   22), ( -13,   -2), (  -4,  -11),
    (  -3,  -10), (   2,   -9), (   4,  -16),
];

/// Our pawn attacks an enemy knight, bishop, rook or queen.
pub const PAWN_THREAT: [Pair; 4] = [
    (  39,   31), (  59,   30), (  64,   13), (  20,   86),
];

/// Our knight or bishop attacks an enemy rook or queen.
pub const MINOR_THREAT: [Pair; 2] = [
    (  63,  -10), (  35,   26),
];

/// Our rook attacks an enemy queen.
pub const ROOK_THREAT: Pair = (50, 49);

/// An enemy pawn, knight, bishop, rook or queen that we attack and no enemy
/// piece defends.
pub const HANGING: [Pair; 5] = [
    (  14,   32), (  26,   23), (  20,   22), (   5,   14),
    (  10,  -47),
];
