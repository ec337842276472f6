package permission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Block is the "permissions" object of a Claude Code settings file, and of
// Hands's --config file.
type Block struct {
	Allow                 []string `json:"allow,omitempty"`
	Ask                   []string `json:"ask,omitempty"`
	Deny                  []string `json:"deny,omitempty"`
	DefaultMode           string   `json:"defaultMode,omitempty"`
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
}

// IsZero reports whether b sets nothing.
func (b Block) IsZero() bool {
	return len(b.Allow)+len(b.Ask)+len(b.Deny)+len(b.AdditionalDirectories) == 0 && b.DefaultMode == ""
}

// Layer is one source of settings: a settings file, or a block given
// directly (Hands's --config).
type Layer struct {
	// Path is the settings file to read; for a Block given directly, the
	// name used in messages.
	Path string
	// Block, when Path is not read, is the layer's content.
	Block *Block
	// Optional makes a missing file no error (the project's and the user's
	// files need not exist; a --settings file must).
	Optional bool
	// Project is what a leading "/" in the layer's path rules means.
	Project string
}

// Merged is the permission configuration of every layer merged.
type Merged struct {
	Rules Rules
	// Mode is the defaultMode of the highest layer that sets one; "" when
	// none does.
	Mode Mode
	// Directories are the additional directories, absolute, in order.
	Directories []string
	// Sources are the files that were read.
	Sources []string
}

// IsZero reports whether no layer set anything: no rules, no mode, no
// directories.
func (m Merged) IsZero() bool {
	return len(m.Rules.Allow)+len(m.Rules.Ask)+len(m.Rules.Deny)+len(m.Directories) == 0 && m.Mode == ""
}

// Load reads and merges layers, highest precedence first, as Claude Code
// merges settings: the allow, ask and deny lists of every layer are joined
// (a rule written twice counts once), and defaultMode comes from the
// highest layer that sets it. A file that does not parse, an unknown key
// under "permissions", a malformed rule or an unknown mode is an error
// naming the file and what is wrong. cwd and home anchor ./ and ~/ in path
// rules and relative additional directories. aliases gives the table of
// tool names a rule may use (see Parse); it is asked only for a rule, so
// that a start with no rules does not build it.
func Load(layers []Layer, aliases func() map[string]string, cwd, home string) (Merged, error) {
	var m Merged
	seen := map[string]bool{}
	for _, l := range layers {
		b := l.Block
		if b == nil {
			var ok bool
			var err error
			b, ok, err = readSettings(l.Path)
			if err != nil {
				return m, err
			}
			if !ok {
				if l.Optional {
					continue
				}
				return m, fmt.Errorf("settings file %s does not exist", l.Path)
			}
			m.Sources = append(m.Sources, l.Path)
		}
		bases := Bases{Project: l.Project, Cwd: cwd, Home: home}
		for _, list := range []struct {
			key  string
			in   []string
			out  *[]Rule
			name string
		}{{"deny", b.Deny, &m.Rules.Deny, "deny"}, {"ask", b.Ask, &m.Rules.Ask, "ask"}, {"allow", b.Allow, &m.Rules.Allow, "allow"}} {
			for _, text := range list.in {
				if seen[list.key+"\x00"+text] {
					continue
				}
				seen[list.key+"\x00"+text] = true
				r, err := Parse(text, aliases(), bases)
				if err != nil {
					return m, fmt.Errorf("%s: permissions.%s: rule %q: %v", l.Path, list.name, text, err)
				}
				r.Source = l.Path
				*list.out = append(*list.out, r)
			}
		}
		if b.DefaultMode != "" && m.Mode == "" {
			mode, err := ParseMode(b.DefaultMode)
			if err != nil {
				return m, fmt.Errorf("%s: permissions.defaultMode: %v", l.Path, err)
			}
			m.Mode = mode
		}
		for _, d := range b.AdditionalDirectories {
			abs, err := directory(d, l.Project, home)
			if err != nil {
				return m, fmt.Errorf("%s: permissions.additionalDirectories: %q: %v", l.Path, d, err)
			}
			if !slices.Contains(m.Directories, abs) {
				m.Directories = append(m.Directories, abs)
			}
		}
	}
	return m, nil
}

func directory(d, project, home string) (string, error) {
	switch {
	case d == "":
		return "", errors.New("empty directory")
	case d == "~" || strings.HasPrefix(d, "~/"):
		if home == "" {
			return "", errors.New("the home directory is unknown")
		}
		d = filepath.Join(home, strings.TrimPrefix(d, "~"))
	case !filepath.IsAbs(d):
		d = filepath.Join(project, d)
	}
	return filepath.Clean(d), nil
}

// readSettings reads the permissions block of a settings file; ok is false
// when the file does not exist. Keys other than "permissions" belong to
// Claude Code and are left alone; inside "permissions", an unknown key is
// an error, so that a misspelt list is never silently ignored.
func readSettings(path string) (*Block, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("settings file %s: %w", path, err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, false, fmt.Errorf("settings file %s is not a JSON object: %v", path, err)
	}
	b := &Block{}
	raw, ok := top["permissions"]
	if !ok || string(raw) == "null" {
		return b, true, nil
	}
	var known map[string]json.RawMessage
	if err := json.Unmarshal(raw, &known); err != nil {
		return nil, false, fmt.Errorf("settings file %s: permissions is not an object: %v", path, err)
	}
	for k := range known {
		switch k {
		case "allow", "ask", "deny", "defaultMode", "additionalDirectories":
		case "disableBypassPermissionsMode":
			// Claude Code's managed switch; Hands refuses bypass without
			// --allow-bypass anyway.
			delete(known, k)
		default:
			return nil, false, fmt.Errorf("settings file %s: unknown key permissions.%s; the keys are allow, ask, deny, defaultMode and additionalDirectories", path, k)
		}
	}
	raw, _ = json.Marshal(known)
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(b); err != nil {
		return nil, false, fmt.Errorf("settings file %s: permissions: %v (allow, ask and deny are lists of strings, defaultMode a string, additionalDirectories a list of strings)", path, err)
	}
	return b, true, nil
}

// ProjectLayers are Claude Code's settings files for a project directory
// and a home directory, highest precedence first: the project's
// .claude/settings.local.json, its .claude/settings.json, and the user's
// ~/.claude/settings.json. "/" in a rule means the project in all of them.
func ProjectLayers(project, home string) []Layer {
	ls := []Layer{
		{Path: filepath.Join(project, ".claude", "settings.local.json"), Optional: true, Project: project},
		{Path: filepath.Join(project, ".claude", "settings.json"), Optional: true, Project: project},
	}
	if home != "" {
		ls = append(ls, Layer{Path: filepath.Join(home, ".claude", "settings.json"), Optional: true, Project: project})
	}
	return ls
}
