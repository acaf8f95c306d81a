//! The table file format, version 2. All integers little-endian.
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `UMPIRETB` |
//! | 2 | format version (2) |
//! | 1 | ending (1 = KRK, 2 = KQK, 3 = KBBK, 4 = KBNK) |
//! | 1 | rule set (1 = `wild16`) |
//! | 1 | complete (1) or depth-limited (0) |
//! | 3 | zero |
//! | 4 | number of canonical layouts `n` |
//! | 8 | number of entries `e` |
//! | 4 | zero (the sections below start 8-byte aligned) |
//! | `n` × 4 | per layout in [`crate::LayoutIndex`] order: king square, men's squares (the second 0 for one man), 0 |
//! | (`n` + 1) × 8 | entry offsets: layout `i` owns entries `offset[i] .. offset[i + 1]` |
//! | `e` × 8 | the sets, per layout sorted by depth then set |
//! | `e` × 1 | the depths, in the same order |
//! | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! Version 1 (KRK only, entries interleaved per layout) is refused with a clear error.
//!
//! The same table always gives the same bytes. A file is loaded by memory mapping it and
//! checking it in one pass (checksum, every field, that each set only holds squares possible
//! for the black king, that entries are in order); the entries are then read straight from
//! the mapping. Errors are [`FormatError`]s, never panics.

use std::fs::File;
use std::io::{self, Read, Write};
use std::ops::{Deref, Range};
use std::path::Path;

use crate::{Ending, LayoutIndex, Tablebase};

/// The first eight bytes of a table file.
pub const MAGIC: [u8; 8] = *b"UMPIRETB";
/// The version of the format written by this crate.
pub const FORMAT_VERSION: u16 = 2;
const RULES_WILD16: u8 = 1;
const HEADER: usize = 32;

/// A table file that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file could not be read or written.
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
    /// Not a table file.
    #[error("not an Umpire tablebase file (bad magic bytes)")]
    Magic,
    /// A version this crate does not read.
    #[error(
        "tablebase format version {0} is not supported (this build reads version {FORMAT_VERSION}; rebuild the table with `umpire tablebase build`)"
    )]
    Version(u16),
    /// An ending code this crate does not know.
    #[error("unknown ending code {0}")]
    Ending(u8),
    /// A rule-set code this crate does not know.
    #[error("unknown rule set code {0} (only 1 = wild16 is supported)")]
    Rules(u8),
    /// The file ends too early.
    #[error("the file is truncated")]
    Truncated,
    /// The checksum does not match: the file is corrupt.
    #[error("checksum mismatch: the file is corrupt")]
    Checksum,
    /// A field has an impossible value.
    #[error("corrupt table: {0}")]
    Corrupt(String),
}

/// The bytes of a table: owned (just built, or read from a stream) or a read-only mapping of
/// the file.
#[derive(Debug)]
pub(crate) enum Data {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl Deref for Data {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Data::Owned(v) => v,
            Data::Mapped(m) => m,
        }
    }
}

/// Where the sections of a checked file start.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sections {
    offsets: usize,
    sets: usize,
    depths: usize,
    /// Number of entries.
    pub entries: usize,
}

#[inline]
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

impl Sections {
    /// The entry numbers of layout `i` (empty for a layout number out of range).
    #[inline]
    pub fn range(&self, bytes: &[u8], i: usize) -> Range<usize> {
        if i >= (self.sets - self.offsets) / 8 - 1 {
            return 0..0;
        }
        let start = u64_at(bytes, self.offsets + 8 * i) as usize;
        let end = u64_at(bytes, self.offsets + 8 * i + 8) as usize;
        start..end
    }

    /// Entry number `j`: (set, depth).
    #[inline]
    pub fn entry(&self, bytes: &[u8], j: usize) -> (u64, u8) {
        (u64_at(bytes, self.sets + 8 * j), bytes[self.depths + j])
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The bytes of a table.
pub(crate) fn encode(
    ending: Ending,
    index: &LayoutIndex,
    entries: &[Vec<(u64, u8)>],
    complete: bool,
) -> Vec<u8> {
    let n = index.len();
    let e: usize = entries.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(HEADER + n * 12 + 8 + e * 9 + 8);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(ending.code());
    out.push(RULES_WILD16);
    out.push(u8::from(complete));
    out.extend_from_slice(&[0; 3]);
    out.extend_from_slice(&(n as u32).to_le_bytes());
    out.extend_from_slice(&(e as u64).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    for layout in index.layouts() {
        out.extend_from_slice(&layout_bytes(layout));
    }
    let mut offset = 0u64;
    out.extend_from_slice(&offset.to_le_bytes());
    for list in entries {
        offset += list.len() as u64;
        out.extend_from_slice(&offset.to_le_bytes());
    }
    for list in entries {
        for &(set, _) in list {
            out.extend_from_slice(&set.to_le_bytes());
        }
    }
    for list in entries {
        for &(_, depth) in list {
            out.push(depth);
        }
    }
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

fn layout_bytes(layout: &crate::Layout) -> [u8; 4] {
    let men = layout.men();
    [
        u8::from(layout.king),
        u8::from(men[0].1),
        men.get(1).map_or(0, |m| u8::from(m.1)),
        0,
    ]
}

/// What a checked file holds besides its entries.
pub(crate) struct Checked {
    pub ending: Ending,
    pub complete: bool,
    pub index: LayoutIndex,
    pub sections: Sections,
}

/// Checks a whole file. `known` is the index of the ending, if the caller has it (it is built
/// otherwise).
pub(crate) fn check(bytes: &[u8], known: Option<LayoutIndex>) -> Result<Checked, FormatError> {
    if bytes.len() < 10 {
        return Err(FormatError::Truncated);
    }
    if bytes[..8] != MAGIC {
        return Err(FormatError::Magic);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != FORMAT_VERSION {
        return Err(FormatError::Version(version));
    }
    if bytes.len() < HEADER + 8 {
        return Err(FormatError::Truncated);
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if fnv1a(body) != u64_at(sum, 0) {
        return Err(FormatError::Checksum);
    }
    let ending = Ending::from_code(body[10]).ok_or(FormatError::Ending(body[10]))?;
    if body[11] != RULES_WILD16 {
        return Err(FormatError::Rules(body[11]));
    }
    let complete = match body[12] {
        0 => false,
        1 => true,
        other => return Err(FormatError::Corrupt(format!("completeness flag {other}"))),
    };
    if body[13..16] != [0; 3] || body[28..32] != [0; 4] {
        return Err(FormatError::Corrupt(
            "reserved header bytes are not zero".to_owned(),
        ));
    }
    let n = u32::from_le_bytes([body[16], body[17], body[18], body[19]]) as usize;
    let e = u64_at(body, 20);
    let index = match known {
        Some(i) if i.ending() == ending => i,
        _ => LayoutIndex::new(ending),
    };
    if n != index.len() {
        return Err(FormatError::Corrupt(format!(
            "{n} layouts, expected {} for {ending}",
            index.len()
        )));
    }
    let offsets = HEADER + 4 * n;
    let sets = offsets + 8 * (n + 1);
    // Each entry takes 9 bytes; compare before multiplying so a forged count cannot overflow.
    let room = body.len().checked_sub(sets).ok_or(FormatError::Truncated)?;
    if e > (room / 9) as u64 {
        return Err(FormatError::Truncated);
    }
    let e = e as usize;
    let depths = sets + 8 * e;
    if depths + e != body.len() {
        return Err(FormatError::Corrupt(format!(
            "{} bytes where the counts give {}",
            body.len(),
            depths + e
        )));
    }
    let sections = Sections {
        offsets,
        sets,
        depths,
        entries: e,
    };
    let mut previous_end = 0u64;
    if u64_at(body, offsets) != 0 {
        return Err(FormatError::Corrupt("the first offset is not 0".to_owned()));
    }
    for (i, layout) in index.layouts().iter().enumerate() {
        let at = HEADER + 4 * i;
        if body[at..at + 4] != layout_bytes(layout) {
            return Err(FormatError::Corrupt(format!(
                "layout number {i} is {:?} where {layout} was expected",
                &body[at..at + 4]
            )));
        }
        let end = u64_at(body, offsets + 8 * (i + 1));
        if end < previous_end || end > e as u64 {
            return Err(FormatError::Corrupt(format!(
                "offsets of {layout} out of range"
            )));
        }
        let domain = layout.domain();
        let mut last: Option<(u8, u64)> = None;
        for j in previous_end as usize..end as usize {
            let (set, depth) = sections.entry(body, j);
            if depth == 0 || set == 0 || set & !domain != 0 {
                return Err(FormatError::Corrupt(format!(
                    "entry {set:#018x} at depth {depth} for {layout}"
                )));
            }
            if last.is_some_and(|l| l >= (depth, set)) {
                return Err(FormatError::Corrupt(format!(
                    "entries of {layout} out of order"
                )));
            }
            last = Some((depth, set));
        }
        previous_end = end;
    }
    if previous_end != e as u64 {
        return Err(FormatError::Corrupt(format!(
            "the offsets cover {previous_end} entries of {e}"
        )));
    }
    Ok(Checked {
        ending,
        complete,
        index,
        sections,
    })
}

impl Tablebase {
    fn from_data(data: Data) -> Result<Tablebase, FormatError> {
        let c = check(&data, None)?;
        Ok(Tablebase {
            ending: c.ending,
            index: c.index,
            data,
            sections: c.sections,
            complete: c.complete,
        })
    }

    /// The table's bytes in the file format.
    pub fn as_bytes(&self) -> &[u8] {
        &self.data
    }

    /// The table as bytes in the file format (a copy of [`Tablebase::as_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.data.to_vec()
    }

    /// Reads a table from bytes in the file format (copied once).
    pub fn from_bytes(bytes: &[u8]) -> Result<Tablebase, FormatError> {
        Tablebase::from_data(Data::Owned(bytes.to_vec()))
    }

    /// Writes the table to `w` in the file format.
    pub fn write_to(&self, mut w: impl Write) -> Result<(), FormatError> {
        w.write_all(&self.data)?;
        Ok(())
    }

    /// Reads a table from `r`.
    pub fn read_from(mut r: impl Read) -> Result<Tablebase, FormatError> {
        let mut bytes = Vec::new();
        r.read_to_end(&mut bytes)?;
        Tablebase::from_data(Data::Owned(bytes))
    }

    /// Writes the table to a file.
    pub fn save(&self, path: &Path) -> Result<(), FormatError> {
        std::fs::write(path, &*self.data)?;
        Ok(())
    }

    /// Maps a table file into memory and checks it; the entries are read from the mapping.
    /// The file must not be changed while the table is in use.
    pub fn load(path: &Path) -> Result<Tablebase, FormatError> {
        let file = File::open(path)?;
        if file.metadata()?.len() == 0 {
            return Err(FormatError::Truncated);
        }
        // SAFETY: the mapping is read-only. Memory mapping is only unsound if another process
        // truncates or rewrites the file while it is mapped; the documented contract of this
        // function excludes that. Every read of the mapping is bounds-checked.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        Tablebase::from_data(Data::Mapped(map))
    }
}
