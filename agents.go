package hands

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hands-dev/hands/internal/agent"
	"github.com/hands-dev/hands/internal/permission"
	"github.com/hands-dev/hands/internal/skill"
	"github.com/hands-dev/hands/internal/tools"
	"github.com/hands-dev/hands/model"
	"github.com/hands-dev/hands/tool"
)

// loadAgents reads the agent types and skills of the project (the first
// root) and the user (~/.claude) when opts.ProjectSettings, logs and keeps
// what did not parse.
func loadAgents(opts Options, project string, log *slog.Logger) (defs []agent.Def, skills []skill.Skill, problems []string) {
	var agentDirs []string
	var skillDirs []skill.Dir
	if opts.ProjectSettings {
		home, _ := os.UserHomeDir()
		if home != "" {
			agentDirs = append(agentDirs, filepath.Join(home, ".claude", "agents"))
		}
		agentDirs = append(agentDirs, filepath.Join(project, ".claude", "agents"))
		skillDirs = append(skillDirs, skill.Dir{Path: filepath.Join(project, ".claude", "skills"), Location: "project"})
		if home != "" {
			skillDirs = append(skillDirs, skill.Dir{Path: filepath.Join(home, ".claude", "skills"), Location: "user"})
		}
	}
	defs, p1 := agent.Load(agentDirs...)
	skills, p2 := skill.Load(skillDirs...)
	for _, p := range append(p1, p2...) {
		log.Warn(p.Error())
		problems = append(problems, p.Error())
	}
	return defs, skills, problems
}

// Problems lists what the runtime found wrong at start-up and left out:
// agent and skill files that do not parse, each naming its file.
func (r *Runtime) Problems() []string { return append([]string(nil), r.problems...) }

// HasModel reports whether the runtime has a model of its own for
// subagents (Options.Model or a configured API); without one, the MCP
// server offers the task tool only to clients that answer sampling.
func (r *Runtime) HasModel() bool {
	_, ok := r.model.(model.Chat)
	return ok
}

// NeedsModel reports whether the tool called name needs a model to run
// (the task tool).
func (r *Runtime) NeedsModel(name string) bool {
	t, ok := r.reg.Get(name)
	return ok && tool.SketchOf(t).Core == "task"
}

// fillDescriptions puts the agent types and skills into the descriptions
// that list them, when those are first read: the names below cost every
// profile's table, which a start-up need not pay.
func fillDescriptions(ts []tool.Tool, defs []agent.Def, sks []skill.Skill) {
	has := func(d string) bool {
		return strings.Contains(d, tools.AgentsMarker) || strings.Contains(d, tools.SkillsMarker)
	}
	if !slices.ContainsFunc(ts, func(t tool.Tool) bool { return has(tool.SketchOf(t).Description) }) {
		return
	}
	names := map[string]string{}
	for _, t := range ts {
		info := tool.SketchOf(t)
		if info.Core != "" {
			names[info.Core] = info.Name
		}
		names[info.Name] = info.Name
	}
	lists := sync.OnceValues(func() (string, string) {
		aliases := toolAliases()
		name := func(n string) string {
			if v, ok := names[n]; ok {
				return v
			}
			if core, ok := aliases[n]; ok {
				return names[core]
			}
			return ""
		}
		return agent.Describe(defs, name), skill.Describe(sks)
	})
	for i, t := range ts {
		if d := tool.SketchOf(t).Description; has(d) {
			ts[i] = redescribed{t, sync.OnceValue(func() string {
				agents, skills := lists()
				return strings.ReplaceAll(strings.ReplaceAll(d, tools.AgentsMarker, agents), tools.SkillsMarker, skills)
			})}
		}
	}
}

// redescribed is a tool with another description, made when first read.
type redescribed struct {
	tool.Tool
	description func() string
}

func (d redescribed) Info() tool.Info {
	info := d.Tool.Info()
	info.Description = d.description()
	return info
}

// Sketch implements tool.Sketcher.
func (d redescribed) Sketch() tool.Info {
	info := tool.SketchOf(d.Tool)
	info.Description = d.description()
	return info
}

// ToolName implements tool.Namer: the name, without the lists.
func (d redescribed) ToolName() string { return tool.NameOf(d.Tool) }

// subagents runs the task tool's agents of one session.
type subagents struct {
	parent *Session
	depth  int

	mu          sync.Mutex
	transcripts map[string]*agent.Loop
	background  map[string]*backgroundAgent
}

// backgroundAgent is an agent running in the background.
type backgroundAgent struct {
	cancel context.CancelFunc
	done   chan struct{}
	out    *tools.TaskResult
	err    error
	start  time.Time
	desc   string
	file   string // its output file: the transcript, as it runs
	killed atomic.Bool
}

var _ tools.Subagents = (*subagents)(nil)

// chat returns the session's model as a Chat, nil when it has none.
func (s *Session) chat() model.Chat {
	c, _ := s.state.Model.(model.Chat)
	return c
}

// Run implements tools.Subagents.
func (a *subagents) Run(ctx context.Context, env *tool.Env, in tools.TaskInput) (*tools.TaskResult, error) {
	r := a.parent.rt
	chat := a.parent.chat()
	if chat == nil {
		return nil, tools.ErrNoModel()
	}
	if a.depth >= r.modelOpts.MaxDepth {
		return nil, taskError(tool.AgentFailed, "agents nest too deep: this agent is at depth %d, the most is %d; do the task here with your own tools", a.depth, r.modelOpts.MaxDepth)
	}
	def, ok := agent.Find(r.agents, in.SubagentType)
	if !ok {
		return nil, taskError(tool.InvalidInput, "Agent type '%s' not found. Available agents: %s", in.SubagentType, strings.Join(agent.Names(r.agents), ", ")).With("reason", "unknown_agent")
	}
	a.mu.Lock()
	loop, resumed := a.transcripts[in.Resume]
	prev := a.background[in.Resume]
	a.mu.Unlock()
	if in.Resume != "" && !resumed {
		return nil, taskError(tool.InvalidInput, "no agent %q to resume in this session; give the agentId a task result named", in.Resume)
	}
	if prev != nil {
		select {
		case <-prev.done:
		default:
			return nil, taskError(tool.InvalidInput, "agent %s is still running in the background: read its result with %s (block it to wait), or stop it with %s, before resuming it", in.Resume, tool.ToolName("task_output"), tool.ToolName("task_kill"))
		}
	}
	id := in.Resume
	if id == "" {
		id = newAgentID()
	}
	child, err := r.childSession(a, def)
	if err != nil {
		return nil, taskError(tool.AgentFailed, "starting the agent: %v", err)
	}
	if loop == nil {
		loop = &agent.Loop{}
	}
	loop.Chat, loop.System = chat, def.Prompt
	loop.Model = modelName(in.Model, def, r.modelOpts)
	loop.Tools = child.enabledTools()
	loop.MaxTurns = r.modelOpts.MaxTurns
	if in.MaxTurns > 0 && in.MaxTurns < loop.MaxTurns {
		loop.MaxTurns = in.MaxTurns
	}
	loop.Exec = child.Batch
	if env != nil && env.Progress != nil {
		loop.Progress = func(m string) {
			env.Progress(tool.Progress{Message: fmt.Sprintf("%s (%s): %s", in.Description, def.Name, m)})
		}
	}
	a.mu.Lock()
	if a.transcripts == nil {
		a.transcripts = map[string]*agent.Loop{}
	}
	a.transcripts[id] = loop
	a.mu.Unlock()
	run := func(ctx context.Context) (*tools.TaskResult, error) {
		defer child.Close()
		start := time.Now()
		o, err := loop.Run(ctx, in.Prompt)
		out := &tools.TaskResult{AgentID: id, Status: "completed", Text: o.Text, ToolUses: o.ToolUses, Turns: o.Turns,
			DurationMS: time.Since(start).Milliseconds(), Description: in.Description}
		out.NewUsage(o.Usage)
		switch {
		case err == nil:
			return out, nil
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case errors.Is(err, agent.ErrMaxTurns):
			return nil, taskError(tool.AgentFailed, "agent %s stopped after %d turns without giving its answer (the most is %d); resume it with resume=%q or give it a narrower task. Its last words: %s", id, o.Turns, loop.MaxTurns, id, orNone(o.Text))
		}
		return nil, taskError(tool.AgentFailed, "agent %s failed after %d turns: %v", id, o.Turns, err)
	}
	if !in.RunInBackground {
		return run(ctx)
	}
	// Its transcript goes to its output file as it runs, beside the
	// background commands' in the session's tasks/ directory.
	f, path, err := a.parent.taskFile(id, prev != nil)
	if err != nil {
		child.Close()
		return nil, taskError(tool.AgentFailed, "making agent %s's output file: %v", id, err)
	}
	tr := &agent.Transcript{W: f, AgentID: id, SessionID: filepath.Base(a.parent.dir), Cwd: child.state.Cwd(), Version: Version}
	loop.Record = tr.Record
	bctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	bg := &backgroundAgent{cancel: cancel, done: make(chan struct{}), start: time.Now(), desc: in.Description, file: path}
	a.mu.Lock()
	if a.background == nil {
		a.background = map[string]*backgroundAgent{}
	}
	a.background[id] = bg
	a.mu.Unlock()
	go func() {
		defer close(bg.done)
		bg.out, bg.err = run(bctx)
		loop.Record = nil // a resumed run is a foreground one
		if err := errors.Join(tr.Err(), f.Close()); err != nil {
			r.log.Warn("background agent's output file", "agent", id, "err", err)
		}
	}()
	return &tools.TaskResult{AgentID: id, Status: "async_launched", Description: in.Description, OutputFile: path}, nil
}

// Background implements tools.Subagents.
func (a *subagents) Background(ctx context.Context, id string, block bool, wait time.Duration) (tools.BackgroundAgent, bool) {
	a.mu.Lock()
	bg, ok := a.background[id]
	a.mu.Unlock()
	if !ok {
		return tools.BackgroundAgent{}, false
	}
	if block {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-bg.done:
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return bg.state(), true
}

// Kill implements tools.Subagents.
func (a *subagents) Kill(id string) (tools.BackgroundAgent, bool) {
	a.mu.Lock()
	bg, ok := a.background[id]
	a.mu.Unlock()
	if !ok {
		return tools.BackgroundAgent{}, false
	}
	select {
	case <-bg.done:
		return bg.state(), true // finished before: nothing to stop
	default:
	}
	bg.killed.Store(true)
	bg.cancel()
	<-bg.done
	return bg.state(), true
}

// state is a background agent's state now.
func (bg *backgroundAgent) state() tools.BackgroundAgent {
	st := tools.BackgroundAgent{Description: bg.desc, Status: "running", Duration: time.Since(bg.start), OutputFile: bg.file}
	select {
	case <-bg.done:
	default:
		return st
	}
	switch {
	case bg.killed.Load():
		st.Status = "killed"
	case bg.err != nil:
		st.Status = "failed"
		st.Error = bg.err.Error()
		if e, ok := bg.err.(*tool.Error); ok {
			st.Error = e.Message
		}
	default:
		st.Status = "completed"
		for _, c := range bg.out.Content() {
			st.Text += c.Text
		}
	}
	return st
}

// close stops the session's background agents.
func (a *subagents) close() {
	a.mu.Lock()
	bgs := a.background
	a.mu.Unlock()
	for _, bg := range bgs {
		bg.cancel()
		<-bg.done
	}
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return s
}

// taskError is a task tool error.
func taskError(code tool.Code, format string, args ...any) *tool.Error {
	return &tool.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// modelName is the model an agent asks for: the call's, the agent file's,
// or the one configured for its type.
func modelName(call string, def agent.Def, o ModelOptions) string {
	switch {
	case call != "":
		return call
	case def.Model != "":
		return def.Model
	case o.Agents[def.Name] != "":
		return o.Agents[def.Name]
	}
	return ""
}

func newAgentID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return "a" + hex.EncodeToString(b[:])
}

// childSession starts the session of a subagent: its own working
// directory, read ledger and todo list; the parent's roots, rules, hooks and
// model; the tools its type allows; plan mode for a read-only type.
func (r *Runtime) childSession(parent *subagents, def agent.Def) (*Session, error) {
	s, err := r.NewSession()
	if err != nil {
		return nil, err
	}
	p := parent.parent
	s.state.Model = p.state.Model
	s.agents.depth = parent.depth + 1
	// The agent cannot be asked about from inside a call the client
	// waits on; it gets the host's answer, or none.
	s.exec.Ask = r.opts.Ask
	s.perm = r.perm.Session(s.state.Cwd, "")
	if err := s.perm.SetMode(p.perm.Mode()); err != nil {
		s.Close()
		return nil, err
	}
	if def.ReadOnly && p.perm.Mode() != permission.BypassPermissions {
		if err := s.perm.SetMode(permission.Plan); err != nil {
			s.Close()
			return nil, err
		}
	}
	s.state.Plan = s.perm
	var policy tool.Policy = s.perm
	if r.opts.Policy != nil {
		policy = policies{s.perm, r.opts.Policy}
	}
	s.exec.Policy = policy
	aliases := toolAliases()
	allowed := func(info tool.Info) bool {
		has := func(l []string) bool {
			for _, n := range l {
				if n == info.Name || n == info.Core || info.Core != "" && aliases[n] == info.Core || aliases[n] == info.Name {
					return true
				}
			}
			return false
		}
		if def.Tools != nil && !has(def.Tools) {
			return false
		}
		return !has(def.Disallowed)
	}
	for _, t := range r.reg.Tools() {
		info := tool.SketchOf(t)
		if !allowed(info) {
			s.exec.Disabled[info.Name] = true
		}
	}
	return s, nil
}

// enabledTools are the definitions of the tools a session may call.
func (s *Session) enabledTools() []tool.Info {
	var out []tool.Info
	for _, info := range s.rt.Tools() {
		if !s.exec.Disabled[info.Name] {
			out = append(out, info)
		}
	}
	return out
}

// taskFile makes the output file of background task id where the
// session's background commands keep theirs (see sessionfiles.go): new
// (O_EXCL), through a handle on the directory, so never through a link
// planted at its name; with again, the one an earlier background run of id
// made in this session, to append to.
func (s *Session) taskFile(id string, again bool) (*os.File, string, error) {
	name := id + ".output"
	if again {
		return s.tasks.Append(name)
	}
	return s.tasks.Create(name)
}
