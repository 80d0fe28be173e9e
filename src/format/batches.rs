//! Documents of a stream scanned on the pool while the next ones are read.
//!
//! An mbox is messages, a WARC file records: units that are scanned on
//! their own. [`scan_in_batches`] reads a batch of them (up to
//! [`BATCH_BYTES`] or [`BATCH_ITEMS`]), then scans it on the pool while it
//! reads the next batch, and hands the scans over in input order. So the
//! reading thread and the pool's threads are busy at once, and memory is
//! two batches whatever the stream's length. Without the `parallel`
//! feature, the same runs on the calling thread.

/// How many bytes of units a batch holds at most (one unit may be larger:
/// it is a batch of its own).
pub(crate) const BATCH_BYTES: usize = 8 << 20;

/// How many units a batch holds at most.
pub(crate) const BATCH_ITEMS: usize = 1024;

/// Reads `items` in batches and scans each with `scan` on the pool while
/// the next is read; hands each scan to `each` in input order. An item
/// for which `ends` is true (a read error) ends the stream: the batch
/// before it is scanned and handed over, then it is returned. `size` is
/// an item's weight in bytes. Returns the number of items scanned, or the
/// item that ended the stream.
pub(crate) fn scan_in_batches<T: Send + Sync, S: Send>(
    items: &mut (impl Iterator<Item = T> + Send),
    size: impl Fn(&T) -> usize + Sync,
    ends: impl Fn(&T) -> bool + Sync,
    scan: impl Fn(&T) -> S + Sync,
    mut each: impl FnMut(S),
) -> Result<u64, T> {
    let read = |items: &mut (dyn Iterator<Item = T> + Send)| {
        let mut batch = Vec::new();
        let mut bytes = 0;
        while bytes < BATCH_BYTES && batch.len() < BATCH_ITEMS {
            match items.next() {
                None => break,
                Some(item) if ends(&item) => return (batch, Some(item)),
                Some(item) => {
                    bytes += size(&item);
                    batch.push(item);
                }
            }
        }
        (batch, None)
    };
    let scan_batch = |batch: &[T]| -> Vec<S> {
        #[cfg(feature = "parallel")]
        {
            use rayon::prelude::*;
            batch.par_iter().map(&scan).collect()
        }
        #[cfg(not(feature = "parallel"))]
        {
            batch.iter().map(&scan).collect()
        }
    };
    let mut count = 0;
    let (mut batch, mut end) = read(items);
    while !batch.is_empty() {
        let ((next, next_end), scans) = if end.is_none() {
            #[cfg(feature = "parallel")]
            {
                rayon::join(|| read(items), || scan_batch(&batch))
            }
            #[cfg(not(feature = "parallel"))]
            {
                let scans = scan_batch(&batch);
                (read(items), scans)
            }
        } else {
            ((Vec::new(), None), scan_batch(&batch))
        };
        count += batch.len() as u64;
        scans.into_iter().for_each(&mut each);
        if end.is_some() {
            break;
        }
        batch = next;
        end = next_end;
    }
    match end {
        Some(item) => Err(item),
        None => Ok(count),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_come_in_input_order_and_an_end_stops_the_stream() {
        // Many batches (by count), then an item that ends the stream.
        let n = BATCH_ITEMS * 3 + 5;
        let mut items = (0..n).map(Ok::<usize, usize>).chain([Err(7), Ok(99)]);
        let mut seen = Vec::new();
        let r = scan_in_batches(
            &mut items,
            |_| 1,
            |i| i.is_err(),
            |i| i.unwrap() * 2,
            |s| seen.push(s),
        );
        assert_eq!(r, Err(Err(7)));
        assert_eq!(seen, (0..n).map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn large_items_make_batches_of_their_own() {
        let mut items = [BATCH_BYTES, 1, BATCH_BYTES, 2].into_iter();
        let mut seen = Vec::new();
        let r = scan_in_batches(&mut items, |&s| s, |_| false, |&s| s, |s| seen.push(s));
        assert_eq!(r, Ok(4));
        assert_eq!(seen, [BATCH_BYTES, 1, BATCH_BYTES, 2]);
    }
}
