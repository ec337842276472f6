package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/coord"
	"go.yaml.in/yaml/v4"
)

// loopOptions sets the coordinator, execution id and loop types from the
// config file and the flags (flags win).
func (c *common) loopOptions(o *hands.Options, cfg config) error {
	o.ExecID, o.Loops, o.Loop = cfg.ExecID, cfg.Loops, cfg.Loop
	if c.execID != "" {
		o.ExecID = c.execID
	}
	if c.loop != "" {
		o.Loop = c.loop
	}
	if c.loops != "" {
		loops, err := loadLoops(c.loops)
		if err != nil {
			return err
		}
		o.Loops = loops
	}
	addr := cfg.Coordinator
	if c.coordinator != "" {
		addr = c.coordinator
	}
	switch {
	case addr == "":
	case addr == "local":
		o.Coordinator = coord.NewLocal()
	case strings.HasPrefix(addr, "nats://") || strings.HasPrefix(addr, "tls://"):
		n, err := coord.DialNATS(addr)
		if err != nil {
			return fmt.Errorf("--coordinator: %w", err)
		}
		o.Coordinator = n
	default:
		return fmt.Errorf("--coordinator %q: give local, or a NATS server as nats://host:4222", addr)
	}
	return nil
}

// loadLoops reads loop types from a YAML or JSON file: either the loop
// types at the top (seed 004's taskdaemon.yml: phase: {tools: [...]}) or
// under "loops". Unknown keys are errors.
func loadLoops(path string) (map[string]hands.LoopType, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--loops: %w", err)
	}
	var top map[string]yaml.Node
	if err := yaml.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("--loops %s: %w", path, err)
	}
	if n, ok := top["loops"]; ok && len(top) == 1 {
		data, err = yaml.Marshal(&n)
		if err != nil {
			return nil, fmt.Errorf("--loops %s: %w", path, err)
		}
	}
	var loops map[string]hands.LoopType
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&loops); err != nil {
		return nil, fmt.Errorf("--loops %s: %w (the file maps each loop type to {tools: [tool names]})", path, err)
	}
	for name, lt := range loops {
		if len(lt.Tools) == 0 {
			return nil, fmt.Errorf("--loops %s: loop type %q lists no tools", filepath.Base(path), name)
		}
	}
	return loops, nil
}
