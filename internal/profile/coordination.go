package profile

import "slices"

// coordinationEntries are seed 004's coordination tools, under the same
// snake_case names in every profile, with the seed's descriptions (the
// core's) and complete_task.
func coordinationEntries() []Entry {
	return []Entry{
		{Core: "query_loop", Name: "query_loop"},
		{Core: "share_data", Name: "share_data"},
		{Core: "complete_task", Name: "complete_task"},
		{Core: "reply_query", Name: "reply_query"},
	}
}

// AddCoordination offers the coordination tools the profile does not list
// itself (taskdaemon lists seed 004's three), for a runtime with a
// coordinator.
func (p *Profile) AddCoordination() {
	for _, e := range coordinationEntries() {
		if !slices.ContainsFunc(p.Tools, func(x Entry) bool { return x.Core == e.Core }) {
			p.Tools = append(p.Tools, e)
		}
	}
}
