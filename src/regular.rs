//! Files read from disk: only regular files are opened.
//!
//! Opening a FIFO waits for a writer that may never come, a device may never end and
//! a directory is no file to read; a path the user gives (a certificate, a table, a
//! board file, a manifest, a lock left in a directory) can be any of them. These are
//! `std::fs`'s reading functions with the check done first: the path (symlinks
//! followed) is looked at before it is opened, and the opened file once more, so a
//! path that is not a regular file is an error, never a wait.
//!
//! The error is an [`io::Error`] (kind [`io::ErrorKind::InvalidInput`]) so that each
//! caller keeps its own handling (a missing file is still
//! [`io::ErrorKind::NotFound`]); [`crate::Error::io`] turns it into an
//! [`crate::Error::Input`] naming the path: "not a regular file (a FIFO)".

use std::fs::{File, FileType};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The payload of the error for a path that is not a regular file.
#[derive(Debug)]
pub(crate) struct NotRegular {
    /// The path opened.
    pub(crate) path: PathBuf,
    /// What it is instead: "a FIFO", "a directory", ...
    pub(crate) what: &'static str,
}

impl std::fmt::Display for NotRegular {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a regular file ({})", self.what)
    }
}

impl std::error::Error for NotRegular {}

impl NotRegular {
    /// The [`NotRegular`] an error carries, if it is one.
    pub(crate) fn of(e: &io::Error) -> Option<&NotRegular> {
        e.get_ref()
            .and_then(|inner| inner.downcast_ref::<NotRegular>())
    }
}

/// What a file type is, for a message: "a FIFO", "a directory", ...
pub(crate) fn what(t: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "neither a file nor a directory"
    }
}

fn refuse(path: &Path, t: FileType) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        NotRegular {
            path: path.to_path_buf(),
            what: what(t),
        },
    )
}

/// Checks that `path` (symlinks followed) is a regular file, without opening it.
pub(crate) fn check(path: impl AsRef<Path>) -> io::Result<()> {
    let path = path.as_ref();
    let meta = std::fs::metadata(path)?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(refuse(path, meta.file_type()))
    }
}

/// [`File::open`] for a regular file only: anything else is refused before it is
/// opened (a FIFO would block), and the opened file is checked again (the path may
/// have been replaced in between).
pub(crate) fn open(path: impl AsRef<Path>) -> io::Result<File> {
    let path = path.as_ref();
    check(path)?;
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() {
        Ok(file)
    } else {
        Err(refuse(path, meta.file_type()))
    }
}

/// [`std::fs::read`] for a regular file only (see [`open`]).
pub(crate) fn read(path: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    let mut file = open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// [`std::fs::read_to_string`] for a regular file only (see [`open`]).
pub(crate) fn read_to_string(path: impl AsRef<Path>) -> io::Result<String> {
    let mut file = open(path)?;
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    Ok(text)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("huntsolve-regular-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = scratch("fifo");
        let fifo = dir.join("f");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // std::fs::read would wait here for a writer, for ever.
        let e = read(&fifo).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(e.to_string(), "not a regular file (a FIFO)");
        assert_eq!(NotRegular::of(&e).unwrap().path, fifo);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_is_refused_and_a_symlink_to_a_file_is_followed() {
        let dir = scratch("dir");
        assert_eq!(
            read_to_string(&dir).unwrap_err().to_string(),
            "not a regular file (a directory)"
        );
        let file = dir.join("a");
        std::fs::write(&file, "text").unwrap();
        let link = dir.join("b");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_to_string(&link).unwrap(), "text");
        assert_eq!(read(&file).unwrap(), b"text");
        assert_eq!(
            read(dir.join("none")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert_eq!(
            read(Path::new("/dev/null")).unwrap_err().to_string(),
            "not a regular file (a character device)"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
