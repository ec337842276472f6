package hands

// ProbeSandbox finds out, in the background, what the sandbox can enforce
// on this machine, and then calls report with what it cannot
// (SandboxWarnings; report is not called when that is nothing), so that a
// server can answer its client at once and still say at start-up what
// commands run without. Probing starts a process (the namespaces'
// spawner, set up and stopped), most of a server's start-up without it.
//
// Nothing runs less confined meanwhile: a shell command that starts
// before the probe has finished waits for it, and with SandboxStrict is
// refused if the probe finds anything missing. Close waits for the probe.
func (r *Runtime) ProbeSandbox(report func(missing []string)) { r.probeFor("", report, nil) }

// probeFor runs the probe in the background for the session whose
// temporary directory is tempDir ("": the next session's), reports what
// is missing, then calls done if not nil.
func (r *Runtime) probeFor(tempDir string, report func(missing []string), done func()) {
	r.sandbox.background.Go(func() {
		if done != nil {
			defer done()
		}
		r.sandboxStateFor(tempDir)
		if miss := r.SandboxWarnings(); len(miss) > 0 {
			report(miss)
		}
	})
}

// WaitProbe waits until the probe ProbeSandbox started has ended; at once
// when none was started.
func (r *Runtime) WaitProbe() { r.sandbox.background.Wait() }

// PrepareSandbox is ProbeSandbox for a server whose session has started
// before the probe: the probe, if none ran yet, starts the spawner of this
// session's commands (as its first command would), where ProbeSandbox
// would make one ahead for the next session. A server that answers its
// client's first requests before it probes (the probe's process competes
// with them for the CPU) calls it once the client has its tools. Close
// and the session's Close wait for the probe; so does WaitProbe.
func (s *Session) PrepareSandbox(report func(missing []string)) {
	s.mu.Lock()
	select {
	case <-s.closing:
		s.mu.Unlock()
		return // its directory is going: a later session's command probes
	default:
	}
	s.preparing.Add(1)
	s.mu.Unlock()
	s.rt.probeFor(s.tmp, report, s.preparing.Done)
}
