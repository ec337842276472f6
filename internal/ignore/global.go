package ignore

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// GlobalExcludesFile returns the path of git's global excludes file:
// core.excludesFile from $XDG_CONFIG_HOME/git/config or ~/.gitconfig (the
// latter wins, as in git), else $XDG_CONFIG_HOME/git/ignore, with
// XDG_CONFIG_HOME defaulting to ~/.config. It returns "" when the home
// directory is unknown. The file may not exist.
func GlobalExcludesFile() string {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var path string
	if xdg != "" {
		if p := excludesFromConfig(filepath.Join(xdg, "git", "config"), home); p != "" {
			path = p
		}
	}
	if home != "" {
		if p := excludesFromConfig(filepath.Join(home, ".gitconfig"), home); p != "" {
			path = p
		}
	}
	if path == "" && xdg != "" {
		path = filepath.Join(xdg, "git", "ignore")
	}
	return path
}

// excludesFromConfig reads core.excludesFile from a git config file. It
// understands sections, comments, quoting and "~/"; it does not follow
// include directives.
func excludesFromConfig(file, home string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	var section, value string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			section = strings.ToLower(strings.TrimSpace(line[1:end]))
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		if section != "core" {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(key), "excludesfile") {
			continue
		}
		value = configValue(strings.TrimSpace(val))
	}
	if strings.HasPrefix(value, "~/") && home != "" {
		value = filepath.Join(home, value[2:])
	}
	return value
}

// configValue strips comments and quotes from a git config value.
func configValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(v[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
