package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// versionInfo is what the binary knows of its build.
type versionInfo struct {
	Main     string // the module version: v1.2.3, a pseudo-version, or (devel)
	Revision string // the VCS revision, with "+dirty" when the tree was modified
	Time     string // the revision's commit time
	Go       string // the Go version that built the binary
}

// buildVersion reads the version from the binary's build information: the
// module version go install records, and the VCS revision go build records
// when it builds inside a repository.
func buildVersion() versionInfo {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(bi)
}

// versionFrom reads a build's information; bi may be nil.
func versionFrom(bi *debug.BuildInfo) versionInfo {
	v := versionInfo{Main: "(devel)", Revision: "unknown", Go: "unknown"}
	if bi == nil {
		return v
	}
	v.Go = bi.GoVersion
	if m := bi.Main.Version; m != "" {
		v.Main = m
	}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty {
		v.Revision += "+dirty"
	}
	return v
}

func (v versionInfo) String() string {
	s := fmt.Sprintf("hands %s\nrevision %s", v.Main, v.Revision)
	if v.Time != "" {
		s += " (" + v.Time + ")"
	}
	return s + "\n" + v.Go
}

func cmdVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "version", stderr)
	if ok, code := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	fmt.Fprintln(stdout, buildVersion())
	return exitOK
}
