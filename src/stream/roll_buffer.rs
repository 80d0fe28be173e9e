//! The byte buffer of a scan: storage initialized once and reused, the
//! undecided tail rolled to the front (like ripgrep's line buffer).

/// A byte buffer whose storage is initialized once and reused: reads go
/// into its spare part without zeroing it again, and a roll moves the kept
/// tail to the front (like ripgrep's line buffer).
#[derive(Default)]
pub(super) struct RollBuffer {
    /// Initialized storage; `data[..len]` holds the bytes.
    pub(super) data: Vec<u8>,
    pub(super) len: usize,
}

impl RollBuffer {
    #[cfg(feature = "parallel")]
    /// An empty buffer with `capacity` bytes of zeroed storage, which the
    /// allocator takes from the system's zeroed pages without writing them:
    /// they cost nothing until touched.
    pub(super) fn zeroed(capacity: usize) -> RollBuffer {
        RollBuffer {
            data: vec![0; capacity],
            len: 0,
        }
    }

    pub(super) fn bytes(&self) -> &[u8] {
        &self.data[..self.len]
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn capacity(&self) -> usize {
        self.data.len()
    }

    /// Room for `want` more bytes, to be filled and then committed.
    pub(super) fn spare(&mut self, want: usize) -> &mut [u8] {
        if self.data.len() < self.len + want {
            self.data.resize(self.len + want, 0);
        }
        &mut self.data[self.len..self.len + want]
    }

    pub(super) fn commit(&mut self, n: usize) {
        self.len += n;
    }

    pub(super) fn extend(&mut self, bytes: &[u8]) {
        self.spare(bytes.len()).copy_from_slice(bytes);
        self.commit(bytes.len());
    }

    /// Drops the first `n` bytes.
    pub(super) fn drop_front(&mut self, n: usize) {
        self.data.copy_within(n..self.len, 0);
        self.len -= n;
    }

    /// Drops `start..end`.
    pub(super) fn remove(&mut self, start: usize, end: usize) {
        self.data.copy_within(end..self.len, start);
        self.len -= end - start;
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
    }
}
