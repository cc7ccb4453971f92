//! Dense per-segment ids of the distinct symbols of a hypothesis.

/// Dense per-segment ids (1, 2, ...) of the distinct symbols of a hypothesis; 0 is "absent".
/// ASCII characters go through a direct table, other symbols through a small hash table.
#[derive(Default)]
pub(super) struct DenseIds {
    ascii: Vec<u32>,
    keys: Vec<u32>,
    vals: Vec<u32>,
    used_ascii: Vec<u32>,
    used: Vec<u32>,
    shift: u32,
    pub(super) n: u32,
}

const NO_SYMBOL: u32 = u32::MAX;

impl DenseIds {
    pub(super) fn reset(&mut self, max_distinct: usize) {
        if self.ascii.is_empty() {
            self.ascii = vec![0; 128];
        }
        for &c in &self.used_ascii {
            self.ascii[c as usize] = 0;
        }
        self.used_ascii.clear();
        for &slot in &self.used {
            self.keys[slot as usize] = NO_SYMBOL;
        }
        self.used.clear();
        let want = (2 * max_distinct).next_power_of_two().max(64);
        if self.keys.len() < want || self.keys.len() > 8 * want {
            self.keys = vec![NO_SYMBOL; want];
            self.vals = vec![0; want];
            self.shift = 64 - want.trailing_zeros();
        }
        self.n = 0;
    }

    #[inline]
    fn slot(&self, sym: u32) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (u64::from(sym).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let k = self.keys[i];
            if k == sym || k == NO_SYMBOL {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    pub(super) fn get_or_insert(&mut self, sym: u32) -> u32 {
        if sym < 128 {
            let v = &mut self.ascii[sym as usize];
            if *v == 0 {
                self.n += 1;
                *v = self.n;
                self.used_ascii.push(sym);
            }
            return *v;
        }
        let i = self.slot(sym);
        if self.keys[i] == NO_SYMBOL {
            self.n += 1;
            self.keys[i] = sym;
            self.vals[i] = self.n;
            self.used.push(i as u32);
        }
        self.vals[i]
    }

    #[inline]
    pub(super) fn get(&self, sym: u32) -> u32 {
        if sym < 128 {
            return self.ascii[sym as usize];
        }
        let i = self.slot(sym);
        if self.keys[i] == NO_SYMBOL {
            0
        } else {
            self.vals[i]
        }
    }
}
