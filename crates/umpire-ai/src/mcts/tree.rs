//! The search tree: nodes are the agent's decision points, named by what the agent heard on
//! the way there; edges are its commands. An arena of nodes, indexed by `u32`, and an arena of
//! the hidden opponent's reply tables (see the `opponent` module).

use umpire_rules::Command;

/// One command the agent may give at a node, with its statistics and the nodes reached by
/// each distinct answer the agent may hear.
#[derive(Clone, Debug)]
pub(crate) struct Edge {
    pub command: Command,
    pub visits: u32,
    pub total: f64,
    /// `(key of what the agent heard, node)`: a small linear map (a handful of answers).
    pub children: Vec<(u64, u32)>,
    /// `(key of what the agent heard of its own accepted command, reply table)`: where the
    /// hidden opponent chooses its reply.
    pub replies: Vec<(u64, u32)>,
}

impl Edge {
    pub fn mean(&self) -> f64 {
        mean(self.total, self.visits)
    }
}

/// The mean of `visits` values summing to `total` (0 before the first).
fn mean(total: f64, visits: u32) -> f64 {
    if visits == 0 {
        0.0
    } else {
        total / f64::from(visits)
    }
}

/// A decision point of the agent.
#[derive(Clone, Debug, Default)]
pub(crate) struct Node {
    pub visits: u32,
    pub edges: Vec<Edge>,
    /// Whether `edges` has been filled from the options at this node.
    pub expanded: bool,
}

/// One reply of the hidden opponent at a reply table: a move of the determinization, by its
/// key, with the agent's values after it and how often it was legal when the table was visited.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arm {
    pub key: u16,
    pub visits: u32,
    /// Visits of the table in which this move was legal (the subset-armed bandit's count).
    pub available: u32,
    pub total: f64,
}

impl Arm {
    pub fn mean(&self) -> f64 {
        mean(self.total, self.visits)
    }
}

/// The hidden opponent's decision point after one of the agent's accepted commands: the
/// replies it has tried, over all the determinizations that reached it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Replies {
    /// The visits the bandit learned from (all of them unless it learns at a stride,
    /// [`super::learning_stride`]).
    pub visits: u32,
    /// Every visit of the table, learned from or not.
    pub seen: u32,
    pub arms: Vec<Arm>,
}

/// The arena.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
    pub replies: Vec<Replies>,
}

impl Tree {
    /// Clears the tree, keeping its storage, and adds the root.
    pub fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::default());
        self.replies.clear();
    }

    /// The reply table after `edge` at `node` when the agent heard `key` of its command,
    /// created if new.
    pub fn reply_table(&mut self, node: u32, edge: usize, key: u64) -> u32 {
        let found = self.nodes[node as usize].edges[edge]
            .replies
            .iter()
            .find(|c| c.0 == key)
            .map(|c| c.1);
        if let Some(id) = found {
            return id;
        }
        let id = self.replies.len() as u32;
        self.replies.push(Replies::default());
        self.nodes[node as usize].edges[edge]
            .replies
            .push((key, id));
        id
    }

    /// The child of `edge` at `node` for answer `key`, created if new; and whether it was.
    pub fn child(&mut self, node: u32, edge: usize, key: u64) -> (u32, bool) {
        let found = self.nodes[node as usize].edges[edge]
            .children
            .iter()
            .find(|c| c.0 == key)
            .map(|c| c.1);
        if let Some(id) = found {
            return (id, false);
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        self.nodes[node as usize].edges[edge]
            .children
            .push((key, id));
        (id, true)
    }

    /// UCB1 over the edges of `node` (unvisited edges first, in order), with exploration
    /// constant `c`. `None` if the node has no edge.
    pub fn select(&self, node: u32, c: f64) -> Option<usize> {
        let n = &self.nodes[node as usize];
        if let Some(i) = n.edges.iter().position(|e| e.visits == 0) {
            return Some(i);
        }
        let ln = f64::from(n.visits.max(1)).ln();
        let mut best = None;
        let mut best_score = f64::NEG_INFINITY;
        for (i, e) in n.edges.iter().enumerate() {
            let score = e.mean() + c * (ln / f64::from(e.visits)).sqrt();
            if score > best_score {
                best_score = score;
                best = Some(i);
            }
        }
        best
    }

    /// The most visited edge of `node` (ties: the higher mean, then the first).
    pub fn best(&self, node: u32) -> Option<usize> {
        let n = &self.nodes[node as usize];
        let mut best: Option<usize> = None;
        for (i, e) in n.edges.iter().enumerate() {
            let better = match best {
                None => true,
                Some(b) => {
                    let eb = &n.edges[b];
                    e.visits > eb.visits || (e.visits == eb.visits && e.mean() > eb.mean())
                }
            };
            if better {
                best = Some(i);
            }
        }
        best
    }

    /// The most visited child of `edge` at `node`.
    pub fn likeliest_child(&self, node: u32, edge: usize) -> Option<u32> {
        self.nodes[node as usize].edges[edge]
            .children
            .iter()
            .max_by_key(|c| self.nodes[c.1 as usize].visits)
            .map(|c| c.1)
    }

    /// Adds `value` along `path` (`(node, edge)` pairs) and to the node the path ends in.
    pub fn backup(&mut self, path: &[(u32, usize)], last: Option<u32>, value: f64) {
        for &(node, edge) in path {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            let e = &mut n.edges[edge];
            e.visits += 1;
            e.total += value;
        }
        if let Some(last) = last {
            self.nodes[last as usize].visits += 1;
        }
    }

    /// Adds `value` (the agent's) to the opponent's replies `(table, arm)` taken on the way.
    pub fn backup_replies(&mut self, taken: &[(u32, u32)], value: f64) {
        for &(table, arm) in taken {
            let a = &mut self.replies[table as usize].arms[arm as usize];
            a.visits += 1;
            a.total += value;
        }
    }
}
