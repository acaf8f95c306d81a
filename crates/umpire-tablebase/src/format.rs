//! The table file format, version 1. All integers little-endian.
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `UMPIRETB` |
//! | 2 | format version (1) |
//! | 1 | ending (1 = KRK) |
//! | 1 | rule set (1 = `wild16`) |
//! | 1 | complete (1) or depth-limited (0) |
//! | 4 | number of canonical layouts `n` (518 for KRK) |
//! | per layout, in [`crate::LayoutIndex`] order | king square (1), rook square (1), entry count `m` (4), then `m` × (set (8), depth (1)) sorted by depth then set |
//! | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! The same table always gives the same bytes. Reading checks every field, that each set only
//! holds squares possible for the black king and that entries are in order, and returns a
//! [`FormatError`] rather than panicking.

use std::io::{self, Read, Write};
use std::path::Path;

use crate::{Ending, LayoutIndex, Tablebase};

/// The first eight bytes of a table file.
pub const MAGIC: [u8; 8] = *b"UMPIRETB";
/// The version of the format written by this crate.
pub const FORMAT_VERSION: u16 = 1;
const RULES_WILD16: u8 = 1;

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
        "tablebase format version {0} is not supported (this build reads version {FORMAT_VERSION})"
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

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Tablebase {
    /// The table as bytes in the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + self.len() * 9 + self.entries.len() * 6);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(self.ending.code());
        out.push(RULES_WILD16);
        out.push(u8::from(self.complete));
        out.extend_from_slice(&(self.index.len() as u32).to_le_bytes());
        for (layout, entries) in self.index.layouts().iter().zip(&self.entries) {
            out.push(u8::from(layout.king));
            out.push(u8::from(layout.rook));
            out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
            for &(set, depth) in entries {
                out.extend_from_slice(&set.to_le_bytes());
                out.push(depth);
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a table from bytes in the file format.
    pub fn from_bytes(bytes: &[u8]) -> Result<Tablebase, FormatError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(8)? != MAGIC {
            return Err(FormatError::Magic);
        }
        let version = u16::from_le_bytes([r.u8()?, r.u8()?]);
        if version != FORMAT_VERSION {
            return Err(FormatError::Version(version));
        }
        if bytes.len() < 8 {
            return Err(FormatError::Truncated);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut sum_bytes = [0u8; 8];
        sum_bytes.copy_from_slice(sum);
        if fnv1a(body) != u64::from_le_bytes(sum_bytes) {
            return Err(FormatError::Checksum);
        }
        let mut r = Reader {
            bytes: body,
            pos: r.pos,
        };
        let code = r.u8()?;
        let ending = Ending::from_code(code).ok_or(FormatError::Ending(code))?;
        let rules = r.u8()?;
        if rules != RULES_WILD16 {
            return Err(FormatError::Rules(rules));
        }
        let complete = match r.u8()? {
            0 => false,
            1 => true,
            other => return Err(FormatError::Corrupt(format!("completeness flag {other}"))),
        };
        let index = match ending {
            Ending::Krk => LayoutIndex::krk(),
        };
        let n = r.u32()? as usize;
        if n != index.len() {
            return Err(FormatError::Corrupt(format!(
                "{n} layouts, expected {}",
                index.len()
            )));
        }
        let mut entries = Vec::with_capacity(n);
        for layout in index.layouts() {
            let (king, rook) = (r.u8()?, r.u8()?);
            if king != u8::from(layout.king) || rook != u8::from(layout.rook) {
                return Err(FormatError::Corrupt(format!(
                    "layout squares {king}, {rook} where {layout} was expected"
                )));
            }
            let m = r.u32()? as usize;
            if m > r.remaining() / 9 {
                return Err(FormatError::Truncated);
            }
            let domain = layout.domain();
            let mut list = Vec::with_capacity(m);
            for _ in 0..m {
                let set = r.u64()?;
                let depth = r.u8()?;
                if depth == 0 || set == 0 || set & !domain != 0 {
                    return Err(FormatError::Corrupt(format!(
                        "entry {set:#018x} at depth {depth} for {layout}"
                    )));
                }
                if let Some(&(s, d)) = list.last()
                    && (d, s) >= (depth, set)
                {
                    return Err(FormatError::Corrupt(format!(
                        "entries of {layout} out of order"
                    )));
                }
                list.push((set, depth));
            }
            entries.push(list);
        }
        if r.remaining() != 0 {
            return Err(FormatError::Corrupt("trailing bytes".to_owned()));
        }
        Ok(Tablebase {
            ending,
            index,
            entries,
            complete,
        })
    }

    /// Writes the table to `w` in the file format.
    pub fn write_to(&self, mut w: impl Write) -> Result<(), FormatError> {
        w.write_all(&self.to_bytes())?;
        Ok(())
    }

    /// Reads a table from `r`.
    pub fn read_from(mut r: impl Read) -> Result<Tablebase, FormatError> {
        let mut bytes = Vec::new();
        r.read_to_end(&mut bytes)?;
        Tablebase::from_bytes(&bytes)
    }

    /// Writes the table to a file.
    pub fn save(&self, path: &Path) -> Result<(), FormatError> {
        std::fs::write(path, self.to_bytes())?;
        Ok(())
    }

    /// Reads a table from a file.
    pub fn load(path: &Path) -> Result<Tablebase, FormatError> {
        Tablebase::from_bytes(&std::fs::read(path)?)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], FormatError> {
        let end = self.pos.checked_add(n).ok_or(FormatError::Truncated)?;
        let slice = self
            .bytes
            .get(self.pos..end)
            .ok_or(FormatError::Truncated)?;
        self.pos = end;
        Ok(slice)
    }

    fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    fn u8(&mut self) -> Result<u8, FormatError> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> Result<u32, FormatError> {
        let mut b = [0u8; 4];
        b.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self) -> Result<u64, FormatError> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }
}
