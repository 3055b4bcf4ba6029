//! A per-rules cache of index tables shared by every tier family: a process-wide map
//! (built once per rules value) behind a thread-local copy of the last one used, so the
//! hot `rank`/`unrank` path takes no lock.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::LocalKey;

/// The process-wide part of a cache: one built value per key.
pub type Global<K, V> = OnceLock<Mutex<HashMap<K, Arc<V>>>>;
/// The thread-local part of a cache: the last key used and its value.
pub type Local<K, V> = RefCell<Option<(K, Arc<V>)>>;

/// The value for `key`, from the thread's last use, else from the shared map, else
/// built once by `build` and shared.
pub fn cached<K: Eq + Hash + Clone, V>(
    local: &'static LocalKey<Local<K, V>>,
    global: &'static Global<K, V>,
    key: K,
    build: impl FnOnce() -> V,
) -> Arc<V> {
    local.with(|cell| {
        if let Some((k, v)) = cell.borrow().as_ref() {
            if *k == key {
                return v.clone();
            }
        }
        let map = global.get_or_init(|| Mutex::new(HashMap::new()));
        let v = {
            let mut guard = match map.lock() {
                Ok(g) => g,
                Err(poisoned) => poisoned.into_inner(),
            };
            guard
                .entry(key.clone())
                .or_insert_with(|| Arc::new(build()))
                .clone()
        };
        *cell.borrow_mut() = Some((key, v.clone()));
        v
    })
}
