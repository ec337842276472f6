//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package nsinit

import (
	"syscall"
	"unsafe"
)

// The new mount API (Linux 5.2, mount_setattr 5.12): the same numbers on
// every architecture of the unified system call table; the syscall package
// predates them.
const (
	sysOpenTree     = 428
	sysMoveMount    = 429
	sysFsopen       = 430
	sysFsconfig     = 431
	sysFsmount      = 432
	sysMountSetattr = 442

	atFDCWD              = -100
	atEmptyPath          = 0x1000
	atRecursive          = 0x8000
	openTreeClone        = 1
	moveMountFEmptyPath  = 0x4
	moveMountTSymlinks   = 0x10
	fsconfigCmdSetString = 1
	fsconfigCmdCreate    = 6
	mountAttrRdonly      = 0x1
	mountAttrNosuid      = 0x2
	mountAttrNodev       = 0x4
	mountAttrNoexec      = 0x8
)

// mountAttr is struct mount_attr.
type mountAttr struct {
	attrSet, attrClr, propagation, usernsFD uint64
}

func openTree(dfd int, path string, flags uint) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	r, _, e := syscall.Syscall(sysOpenTree, uintptr(dfd), uintptr(unsafe.Pointer(p)), uintptr(flags))
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

func moveMount(fromDFD int, fromPath string, toDFD int, toPath string, flags int) error {
	f, err := syscall.BytePtrFromString(fromPath)
	if err != nil {
		return err
	}
	t, err := syscall.BytePtrFromString(toPath)
	if err != nil {
		return err
	}
	if _, _, e := syscall.Syscall6(sysMoveMount, uintptr(fromDFD), uintptr(unsafe.Pointer(f)), uintptr(toDFD), uintptr(unsafe.Pointer(t)), uintptr(flags), 0); e != 0 {
		return e
	}
	return nil
}

func fsopen(name string, flags int) (int, error) {
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	r, _, e := syscall.Syscall(sysFsopen, uintptr(unsafe.Pointer(p)), uintptr(flags), 0)
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

func fsconfig(fd, cmd int, key, value *byte) error {
	if _, _, e := syscall.Syscall6(sysFsconfig, uintptr(fd), uintptr(cmd), uintptr(unsafe.Pointer(key)), uintptr(unsafe.Pointer(value)), 0, 0); e != 0 {
		return e
	}
	return nil
}

func fsconfigSetString(fd int, key, value string) error {
	k, err := syscall.BytePtrFromString(key)
	if err != nil {
		return err
	}
	v, err := syscall.BytePtrFromString(value)
	if err != nil {
		return err
	}
	return fsconfig(fd, fsconfigCmdSetString, k, v)
}

func fsconfigCreate(fd int) error { return fsconfig(fd, fsconfigCmdCreate, nil, nil) }

func fsmount(fd, flags, attrs int) (int, error) {
	r, _, e := syscall.Syscall(sysFsmount, uintptr(fd), uintptr(flags), uintptr(attrs))
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

func mountSetattr(dfd int, path string, flags uint, attr *mountAttr) error {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	if _, _, e := syscall.Syscall6(sysMountSetattr, uintptr(dfd), uintptr(unsafe.Pointer(p)), uintptr(flags), uintptr(unsafe.Pointer(attr)), unsafe.Sizeof(*attr), 0); e != 0 {
		return e
	}
	return nil
}
