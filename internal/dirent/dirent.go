// Package dirent reads Linux directory entries (struct linux_dirent64, as
// getdents64 returns them) and maps their types and lstat modes to the
// type bits of io/fs, as os.File.ReadDir and os.Lstat do. It serves the
// listings that read directories with raw system calls (package walk's
// and the sandbox's ListDir) rather than through os.File.
package dirent
