package sandbox

import "path"

// A ListDir is a directory of the roots held open for listing a tree. Its
// subdirectories and files are opened through its handle, one plain name
// at a time, so a listing N levels deep costs one open per directory
// rather than a walk from the root for each one (os.Root opens every
// component of a path again for each operation). On Unix a subdirectory is
// opened with O_NOFOLLOW|O_DIRECTORY relative to its parent's handle, so it
// is the entry of that name and never a link followed; like ReadDir, each
// opened directory is then checked against the roots and the deny
// patterns by where the kernel says it is. Elsewhere, each operation goes
// through Resolve and ReadDirTypes as before.
//
// A ListDir is not safe for concurrent use; Close it when done.

// Path returns the directory's path, as Resolve would give it.
func (d *ListDir) Path() Path { return d.p }

// child returns the Path of name, a plain entry of d.
func (d *ListDir) child(name string) Path {
	abs := path.Join(d.p.Abs, name)
	return Path{Abs: abs, Req: abs, Root: d.p.Root, Rel: path.Join(d.p.Rel, name), Exists: true}
}
