//! Where a distributed run keeps what its processes share: a local or network folder, or an
//! S3-compatible bucket, through the `object_store` crate — one code path for both.
//!
//! A run's storage holds (`distributed` writes and reads it):
//! ```text
//! config.toml                 the run's configuration (workers take theirs from it)
//! models/<step>.ot (+ .json)  every published network; models/latest names the newest
//! shards/<worker>-<nonce>-<seq>.shard   self-play positions, one immutable object per batch
//! ```
//! Every object is written in one `put`: atomic on S3, and a write to a staging file renamed
//! into place on a folder, so a reader never sees half an object under its final name.

use bytes::Bytes;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, PutPayload};
use std::sync::Arc;
use tokio::runtime::Runtime;

/// An error of the run's storage, naming the object or the URL.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error(
        "storage URL {url:?}: {reason} (expected a folder, file:///path or s3://bucket/prefix)"
    )]
    Url { url: String, reason: String },
    #[error("storage {url}: {op} {key}: {source}")]
    Io {
        url: String,
        op: &'static str,
        key: String,
        source: Box<object_store::Error>,
    },
    #[error("cannot start the storage runtime: {0}")]
    Runtime(std::io::Error),
}

/// A run's storage: a blocking face on an [`ObjectStore`] under a prefix.
pub struct Storage {
    url: String,
    store: Arc<dyn ObjectStore>,
    prefix: ObjectPath,
    rt: Runtime,
}

impl Storage {
    /// Opens `url`: a folder path (created if missing), `file:///abs/path`, or
    /// `s3://bucket/prefix` configured by the usual `AWS_*` environment variables
    /// (`AWS_ENDPOINT` and `AWS_ALLOW_HTTP=true` for a server of your own, e.g. MinIO or moto).
    pub fn open(url: &str) -> Result<Storage, StorageError> {
        let bad = |reason: String| StorageError::Url {
            url: url.to_string(),
            reason,
        };
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(StorageError::Runtime)?;
        let (store, prefix): (Arc<dyn ObjectStore>, ObjectPath) =
            if let Some(rest) = url.strip_prefix("s3://") {
                let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
                if bucket.is_empty() {
                    return Err(bad("no bucket named".into()));
                }
                let s3 = object_store::aws::AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .build()
                    .map_err(|e| bad(e.to_string()))?;
                (Arc::new(s3), ObjectPath::from(prefix.trim_matches('/')))
            } else {
                let path = url.strip_prefix("file://").unwrap_or(url);
                if path.is_empty() || url.contains("://") && !url.starts_with("file://") {
                    return Err(bad("unknown scheme".into()));
                }
                std::fs::create_dir_all(path)
                    .map_err(|e| bad(format!("cannot create the folder: {e}")))?;
                let local = object_store::local::LocalFileSystem::new_with_prefix(path)
                    .map_err(|e| bad(e.to_string()))?;
                (Arc::new(local), ObjectPath::from(""))
            };
        Ok(Storage {
            url: url.to_string(),
            store,
            prefix,
            rt,
        })
    }

    /// The URL it was opened with.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn path(&self, key: &str) -> ObjectPath {
        if self.prefix.as_ref().is_empty() {
            ObjectPath::from(key)
        } else {
            ObjectPath::from(format!("{}/{key}", self.prefix))
        }
    }

    fn err(&self, op: &'static str, key: &str, source: object_store::Error) -> StorageError {
        StorageError::Io {
            url: self.url.clone(),
            op,
            key: key.to_string(),
            source: Box::new(source),
        }
    }

    /// Writes `bytes` as `key` in one atomic put.
    pub fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), StorageError> {
        let path = self.path(key);
        self.rt
            .block_on(self.store.put(&path, PutPayload::from(Bytes::from(bytes))))
            .map_err(|e| self.err("put", key, e))?;
        Ok(())
    }

    /// The object `key`, or `None` when there is none.
    pub fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StorageError> {
        let path = self.path(key);
        let got = self.rt.block_on(async {
            match self.store.get(&path).await {
                Ok(r) => r.bytes().await.map(Some),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(e) => Err(e),
            }
        });
        got.map(|b| b.map(|b| b.to_vec()))
            .map_err(|e| self.err("get", key, e))
    }

    /// Deletes `key` (nothing when it is missing).
    pub fn delete(&self, key: &str) -> Result<(), StorageError> {
        let path = self.path(key);
        match self.rt.block_on(self.store.delete(&path)) {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(self.err("delete", key, e)),
        }
    }

    /// The keys under `dir` (e.g. `shards`), relative to the run, sorted.
    pub fn list(&self, dir: &str) -> Result<Vec<String>, StorageError> {
        use futures::TryStreamExt;
        let path = self.path(dir);
        let metas: Vec<object_store::ObjectMeta> = self
            .rt
            .block_on(self.store.list(Some(&path)).try_collect())
            .map_err(|e| self.err("list", dir, e))?;
        let strip = if self.prefix.as_ref().is_empty() {
            String::new()
        } else {
            format!("{}/", self.prefix)
        };
        let mut keys: Vec<String> = metas
            .into_iter()
            .map(|m| m.location.to_string())
            .map(|k| k.strip_prefix(&strip).map(str::to_string).unwrap_or(k))
            .collect();
        keys.sort();
        Ok(keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_stores_lists_and_reads_objects() {
        let dir = tempfile::tempdir().unwrap();
        let s = Storage::open(dir.path().to_str().unwrap()).unwrap();
        assert_eq!(s.get("config.toml").unwrap(), None);
        s.put("shards/b.shard", b"two".to_vec()).unwrap();
        s.put("shards/a.shard", b"one".to_vec()).unwrap();
        s.put("models/latest", b"7".to_vec()).unwrap();
        assert_eq!(
            s.list("shards").unwrap(),
            ["shards/a.shard", "shards/b.shard"]
        );
        assert_eq!(s.get("shards/b.shard").unwrap().unwrap(), b"two");
        assert!(dir.path().join("models/latest").is_file());
    }

    #[test]
    fn a_bad_url_is_refused_with_its_value() {
        let e = Storage::open("ftp://host/x").err().unwrap().to_string();
        assert!(
            e.contains("ftp://host/x") && e.contains("unknown scheme"),
            "{e}"
        );
        let e = Storage::open("s3://").err().unwrap().to_string();
        assert!(e.contains("no bucket"), "{e}");
    }
}
