//! Process-wide state: whether a stop was asked for, and the allocator that counts heap
//! bytes. Any layer may read them; they import nothing from codecbench.

pub(crate) mod cpu;
pub(crate) mod destination;
pub(crate) mod interrupt;
pub(crate) mod memory;
