//! Witnesses: every hypothesis carries the opponent's moves that lead to it, as a chain of
//! nodes (parent, move) shared between hypotheses with a common past.

use umpire_rules::Attempt;

/// No parent: the start position.
pub(crate) const ROOT: u32 = u32::MAX;

/// One opponent move in a hidden history.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// The node of the opponent's previous move, or [`ROOT`].
    pub parent: u32,
    /// The opponent's move.
    pub mv: Attempt,
    /// Where threefold repetition is in force: the Zobrist hash of the position the move was
    /// made in (0 otherwise).
    pub before: u64,
    /// The Zobrist hash of the position after the move (0 where repetition is not in force).
    pub after: u64,
    /// Bit 0: the position before was reached by a pawn move or capture; bit 1: the move
    /// itself was one. The umpire's repetition history starts there.
    pub zeroing: u8,
}

/// [`Node::zeroing`]: the position before the move was reached by a pawn move or a capture.
pub(crate) const BEFORE_ZEROING: u8 = 1;
/// [`Node::zeroing`]: the move was a pawn move or a capture.
pub(crate) const AFTER_ZEROING: u8 = 2;

/// The arena of witness nodes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Witnesses {
    nodes: Vec<Node>,
}

impl Witnesses {
    /// Adds a node; returns its index.
    pub fn push(&mut self, node: Node) -> u32 {
        let index = u32::try_from(self.nodes.len()).expect("fewer than 2^32 witness nodes");
        self.nodes.push(node);
        index
    }

    /// How often `target` occurs in the umpire's repetition history that ends with the
    /// position after `node`'s move (back to the last pawn move or capture); `start` is the
    /// start position's hash when the history may reach it without a node recording it (the
    /// player moved first).
    pub fn occurrences(&self, target: u64, mut node: u32, start: Option<u64>) -> u32 {
        let mut count = 0;
        while node != ROOT {
            let n = &self.nodes[node as usize];
            count += u32::from(n.after == target);
            if n.zeroing & AFTER_ZEROING != 0 {
                return count;
            }
            count += u32::from(n.before == target);
            if n.zeroing & BEFORE_ZEROING != 0 {
                return count;
            }
            node = n.parent;
        }
        count + start.map_or(0, |s| u32::from(s == target))
    }

    /// The nodes leading to `node` (itself last), oldest first.
    pub fn chain(&self, mut node: u32) -> Vec<u32> {
        let mut out = Vec::new();
        while node != ROOT {
            out.push(node);
            node = self.nodes[node as usize].parent;
        }
        out.reverse();
        out
    }

    /// The node at `index`, if held.
    pub fn get(&self, index: u32) -> Option<&Node> {
        self.nodes.get(index as usize)
    }

    /// The opponent's moves leading to `node`, oldest first.
    pub fn moves(&self, mut node: u32) -> Vec<Attempt> {
        let mut out = Vec::new();
        while node != ROOT {
            let n = self.nodes[node as usize];
            out.push(n.mv);
            node = n.parent;
        }
        out.reverse();
        out
    }

    /// Number of nodes held.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Keeps only the nodes reachable from `live` (rewritten to the new indices).
    pub fn compact(&mut self, live: &mut [u32]) {
        let mut map = vec![u32::MAX; self.nodes.len()];
        let mut kept: Vec<Node> = Vec::new();
        // Marks every ancestor of every live node, then renumbers in the old order (parents
        // always come before children, so renumbering keeps that order).
        let mut keep = vec![false; self.nodes.len()];
        for &l in live.iter() {
            let mut n = l;
            while n != ROOT && !keep[n as usize] {
                keep[n as usize] = true;
                n = self.nodes[n as usize].parent;
            }
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if keep[i] {
                map[i] = kept.len() as u32;
                let parent = if node.parent == ROOT {
                    ROOT
                } else {
                    map[node.parent as usize]
                };
                kept.push(Node { parent, ..*node });
            }
        }
        for l in live.iter_mut() {
            if *l != ROOT {
                *l = map[*l as usize];
            }
        }
        self.nodes = kept;
    }
}
