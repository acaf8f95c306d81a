//! A global allocator that counts the allocations (and reallocations) made on each thread, for
//! the tests that check a hot path allocates nothing. A test binary installs it with
//! `#[global_allocator] static GLOBAL: Counting = Counting;` and reads [`allocations`] before
//! and after the code under test.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, with each allocation and reallocation counted on the calling thread.
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to `System`; the count is a thread-local cell
// (`try_with`: a thread being torn down is not counted rather than panicking).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// How many allocations and reallocations this thread has made so far under [`Counting`].
pub fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}
