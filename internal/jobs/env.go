package jobs

import (
	"slices"
	"strings"
)

// envAllowed are the variables of the server's environment that commands
// inherit: what a shell and the usual toolchains need to find things and
// format output, and nothing that usually carries a credential (tokens,
// API keys, proxy URLs with passwords, agent sockets). Anything else must
// be passed explicitly.
var envAllowed = []string{
	// The shell and the terminal.
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "COLORTERM", "NO_COLOR",
	"LANG", "LANGUAGE", "TZ", "TMPDIR", "HOSTNAME",
	// Where things live.
	"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE",
	"NODE_EXTRA_CA_CERTS", "GIT_SSL_CAINFO",
	// Go.
	"GOPATH", "GOROOT", "GOBIN", "GOCACHE", "GOMODCACHE", "GOENV", "GOFLAGS",
	"GOPROXY", "GOPRIVATE", "GONOPROXY", "GONOSUMDB", "GOSUMDB", "GOTOOLCHAIN",
	"GOEXPERIMENT", "CGO_ENABLED",
	// Other toolchains.
	"CARGO_HOME", "RUSTUP_HOME", "JAVA_HOME", "NVM_DIR", "PYENV_ROOT",
	"VIRTUAL_ENV", "CONDA_PREFIX",
}

// EnvAllowed reports whether commands inherit the server's variable name:
// one of a fixed list (PATH, HOME, USER, LOGNAME, SHELL, TERM, LANG,
// LANGUAGE, TZ, TMPDIR, the XDG directories, the Go, Rust, Java, Node and
// Python toolchain locations, CA bundle paths) or an LC_* locale variable.
func EnvAllowed(name string) bool {
	return slices.Contains(envAllowed, name) || strings.HasPrefix(name, "LC_")
}

// defaultPath is PATH when the server has none.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// BuildEnv builds a command environment: the entries of environ (NAME=value,
// as from os.Environ) whose names EnvAllowed accepts, then extra, the
// user's explicit additions, which may set anything and override. PATH is
// always set.
func BuildEnv(environ []string, extra ...string) []string {
	var env []string
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if ok && EnvAllowed(name) {
			env = setEnv(env, kv)
		}
	}
	for _, kv := range extra {
		if strings.Contains(kv, "=") {
			env = setEnv(env, kv)
		}
	}
	if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "PATH=") }) {
		env = append(env, "PATH="+defaultPath)
	}
	return env
}

// setEnv sets NAME=value in env, replacing an earlier NAME.
func setEnv(env []string, kv string) []string {
	name, _, _ := strings.Cut(kv, "=")
	i := slices.IndexFunc(env, func(e string) bool {
		n, _, _ := strings.Cut(e, "=")
		return n == name
	})
	if i >= 0 {
		env[i] = kv
		return env
	}
	return append(env, kv)
}
