//! One mini-batch's gradient over several threads, the same to the last bit
//! whatever their number.
//!
//! Floating-point addition is not associative, so the batch is cut into chunks of
//! `CHUNK` positions that do not depend on the thread count; each chunk's gradient
//! is summed on its own (positions in order), and the chunks' gradients are added
//! to the batch's in chunk order. Thread `t` of `T` works on chunks `t`, `t + T`, …
//! and waits for its turn (a ticket) to add each.

use super::data::Packed;
use super::net::{FloatNet, Gradient, Workspace, add_gradient};
use std::sync::{Condvar, Mutex, PoisonError};

/// Positions in a chunk: large enough that adding a chunk's gradient (one pass
/// over the touched rows of the weights) costs little beside computing it, small
/// enough that a default batch (16384) keeps 32 threads busy.
pub const CHUNK: usize = 512;

/// The batch's gradient so far and the chunk whose turn it is to be added.
struct Ticket<'a> {
    next: usize,
    total: &'a mut Gradient,
    loss: f64,
}

/// Sets `total` to the gradient of the mean loss of `batch`, computed on as many
/// threads as `workspaces` has entries; returns the batch's summed loss.
pub fn batch_gradient(
    net: &FloatNet,
    batch: &[Packed],
    lambda: f32,
    workspaces: &mut [Workspace],
    total: &mut Gradient,
) -> f64 {
    total.clear();
    let scale = 1.0 / batch.len().max(1) as f32;
    let chunks: Vec<&[Packed]> = batch.chunks(CHUNK).collect();
    let threads = workspaces.len().max(1);
    let ticket = Mutex::new(Ticket {
        next: 0,
        total,
        loss: 0.0,
    });
    let turn = Condvar::new();
    let work = |first: usize, ws: &mut Workspace| {
        for (i, chunk) in chunks.iter().enumerate().skip(first).step_by(threads) {
            ws.gradient.clear();
            let loss = add_gradient(net, chunk, lambda, scale, ws);
            let mut t = ticket.lock().unwrap_or_else(PoisonError::into_inner);
            while t.next != i {
                t = turn.wait(t).unwrap_or_else(PoisonError::into_inner);
            }
            t.total.add(&ws.gradient);
            t.loss += loss;
            t.next += 1;
            turn.notify_all();
        }
    };
    match workspaces.split_first_mut() {
        None => {}
        Some((mine, [])) => work(0, mine),
        Some((mine, others)) => std::thread::scope(|scope| {
            let work = &work;
            for (t, ws) in others.iter_mut().enumerate() {
                scope.spawn(move || work(t + 1, ws));
            }
            work(0, mine);
        }),
    }
    ticket
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .loss
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::datagen::format::GameResult;
    use crate::tools::train::net::tests::playout_positions;

    fn bits(x: &[f32]) -> Vec<u32> {
        x.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn the_gradient_is_the_same_bits_with_any_threads() {
        let positions: Vec<Packed> = playout_positions(3 * CHUNK + 100, 9)
            .iter()
            .enumerate()
            .map(|(i, p)| Packed::new(p, (i % 300) as i16 - 150, GameResult::Draw).unwrap())
            .collect();
        let net = FloatNet::new(16, 8, 4);
        let run = |threads: usize| {
            let mut workspaces: Vec<Workspace> =
                (0..threads).map(|_| Workspace::new(16, 8)).collect();
            let mut total = Gradient::new(16, 8);
            // Twice, so that reused buffers are seen to be cleared.
            batch_gradient(&net, &positions[..CHUNK], 0.5, &mut workspaces, &mut total);
            let loss = batch_gradient(&net, &positions, 0.5, &mut workspaces, &mut total);
            (loss, total)
        };
        let (loss, one) = run(1);
        for threads in [2, 3, 7] {
            let (l, g) = run(threads);
            assert_eq!(loss.to_bits(), l.to_bits(), "{threads} threads");
            assert_eq!(
                (&one.w, &one.b, &one.v, bits(&one.c0)),
                (&g.w, &g.b, &g.v, bits(&g.c0)),
                "{threads} threads"
            );
        }
        // The sum of the chunks is the gradient of the mean loss of the batch.
        let mut ws = Workspace::new(16, 8);
        let scale = 1.0 / positions.len() as f32;
        let plain = add_gradient(&net, &positions, 0.5, scale, &mut ws);
        assert!((plain - loss).abs() < 1e-9 * plain.abs().max(1.0));
        for (a, b) in one.w.iter().zip(&ws.gradient.w) {
            assert!((a - b).abs() <= 1e-5 * b.abs().max(1e-3), "{a} {b}");
        }
    }
}
