package profile

import (
	"fmt"
	"sync"

	"github.com/hands-dev/hands/internal/tools"
)

// Claude Code 2.1.7's plan-mode and question tools. ExitPlanMode takes no
// plan: as in Claude Code, the model writes it to the plan file that
// EnterPlanMode names.
var (
	claudeEnterPlanMode = sync.OnceValue(func() Entry {
		return Entry{Core: "enter_plan_mode", Name: "EnterPlanMode", Description: desc("claude/EnterPlanMode.md"), Params: []Param{}}
	})
	// ExitPlanMode's schema allows any other property, as Claude Code's
	// does, and other properties are ignored as Claude Code ignores them:
	// a plan the model passes (as older versions took one) is not the
	// plan; the plan file is.
	claudeExitPlanMode = sync.OnceValue(func() Entry {
		return Entry{Core: "exit_plan_mode", Name: "ExitPlanMode", Description: desc("claude/ExitPlanMode.md"), IgnoreUnknown: true,
			SchemaKeywords: `{"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":{}}`, Params: []Param{
				{Name: "allowedPrompts", Core: "allowed_prompts", Description: "Prompt-based permissions needed to implement the plan. These describe categories of actions rather than specific commands.", Items: []Param{
					{Name: "tool", Description: "The tool this prompt applies to", Schema: `{"enum":["Bash"]}`},
					{Name: "prompt", Description: `Semantic description of the action, e.g. "run tests", "install dependencies"`},
				}},
			}}
	})
	claudeAskUserQuestion = sync.OnceValue(func() Entry {
		return Entry{Core: "ask_user_question", Name: "AskUserQuestion", Description: desc("claude/AskUserQuestion.md"), Params: []Param{
			{Name: "questions", Description: "Questions to ask the user (1-4 questions)", Schema: `{"minItems":1,"maxItems":4}`, Items: []Param{
				{Name: "question", Description: `The complete question to ask the user. Should be clear, specific, and end with a question mark. Example: "Which library should we use for date formatting?" If multiSelect is true, phrase it accordingly, e.g. "Which features do you want to enable?"`},
				{Name: "header", Description: `Very short label displayed as a chip/tag (max 12 chars). Examples: "Auth method", "Library", "Approach".`},
				{Name: "options", Description: "The available choices for this question. Must have 2-4 options. Each option should be a distinct, mutually exclusive choice (unless multiSelect is enabled). There should be no 'Other' option, that will be provided automatically.", Schema: `{"minItems":2,"maxItems":4}`, Items: []Param{
					{Name: "label", Description: "The display text for this option that the user will see and select. Should be concise (1-5 words) and clearly describe the choice."},
					{Name: "description", Description: "Explanation of what this option means or what will happen if chosen. Useful for providing context about trade-offs or implications."},
				}},
				{Name: "multiSelect", Description: "Set to true to allow the user to select multiple options instead of just one. Use when choices are not mutually exclusive.", Schema: `{"default":false}`},
			}},
			{Name: "answers", Description: "User answers collected by the permission component", Schema: `{"propertyNames":{"type":"string"}}`},
			{Name: "metadata", Description: "Optional metadata for tracking and analytics purposes. Not displayed to user."},
		}}
	})
)

// claudeEnteredPlan is EnterPlanMode's result in Claude Code 2.1.7
// (measured), followed by the plan-mode reminder it attaches, cut to what
// applies to Hands: the plan file.
const claudeEnteredPlan = `Entered plan mode. You should now focus on exploring the codebase and designing an implementation approach.

In plan mode, you should:
1. Thoroughly explore the codebase to understand existing patterns
2. Identify similar features and architectural approaches
3. Consider multiple approaches and their trade-offs
4. Use AskUserQuestion if you need to clarify the approach
5. Design a concrete implementation strategy
6. When ready, use ExitPlanMode to present your plan for approval

Remember: DO NOT write or edit any files yet. This is a read-only exploration and planning phase.`

const claudePlanReminder = `

<system-reminder>
Plan mode is active. The user indicated that they do not want you to execute yet -- you MUST NOT make any edits (with the exception of the plan file mentioned below), run any non-readonly tools (including changing configs or making commits), or otherwise make any changes to the system. This supercedes any other instructions you have received.

## Plan File Info:
%s
You should build your plan incrementally by writing to or editing this file. NOTE that this is the only file you are allowed to edit - other than this you are only allowed to take READ-ONLY actions.
</system-reminder>`

// claudeExitedPlan is the reminder Claude Code 2.1.7 attaches to an
// approved ExitPlanMode (its plan_mode_exit attachment); %s is where the
// plan file is, when there is one.
const claudeExitedPlan = "\n\n<system-reminder>\n## Exited Plan Mode\n\nYou have exited plan mode. You can now make edits, run tools, and take actions.%s\n</system-reminder>"

// claudeRejected is Claude Code's result of a tool use the user rejected
// at its prompt: the strings its permission dialog returns (v4A and gyA in
// 2.1.7's cli.js); "No, keep planning" on ExitPlanMode's dialog gives them
// too. A permission-prompt tool's denial (headless) returns only its own
// message instead; Hands asks through the client as the dialog does.
const (
	claudeRejected         = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). "
	claudeRejectedFeedback = claudeRejected + "To tell you how to proceed, the user said:\n%s"
	claudeRejectedStop     = claudeRejected + "STOP what you are doing and wait for the user to tell you how to proceed."
)

// renderClaudePlan renders the plan and question tools' results as Claude
// Code does, and reports whether the result was one of theirs.
func renderClaudePlan(r *Rendering) bool {
	switch r.Entry.Core {
	case "enter_plan_mode", "exit_plan_mode", "ask_user_question":
	default:
		return false
	}
	if e := r.Err(); e != nil {
		if r.detail(tools.DetailRejected) != "true" {
			return false // the common error rendering
		}
		if f := r.detail(tools.DetailFeedback); f != "" {
			r.Text(fmt.Sprintf(claudeRejectedFeedback, f))
		} else {
			r.Text(claudeRejectedStop)
		}
		return true
	}
	switch out := r.Out.(type) {
	case *tools.EnterPlanModeOutput:
		info := fmt.Sprintf("No plan file exists yet. You should create your plan at %s using the Write tool.", out.PlanFile)
		if out.PlanExists {
			info = fmt.Sprintf("A plan file already exists at %s. You can read it and make incremental edits using the Edit tool.", out.PlanFile)
		}
		r.Text(claudeEnteredPlan + fmt.Sprintf(claudePlanReminder, info))
	case *tools.ExitPlanModeOutput:
		// The texts and the plan_mode_exit reminder Claude Code's loop
		// attaches, recorded from Claude Code 2.1.7 with its permission
		// prompts answered (testdata/claude/plan_recorded.jsonl).
		if out.Plan == "" {
			r.Text("User has approved exiting plan mode. You can now proceed." + fmt.Sprintf(claudeExitedPlan, ""))
			break
		}
		r.Text(fmt.Sprintf("User has approved your plan. You can now start coding. Start with updating your todo list if applicable\n\nYour plan has been saved to: %s\nYou can refer back to it if needed during implementation.\n\n## Approved Plan:\n%s", out.PlanFile, out.Plan) +
			fmt.Sprintf(claudeExitedPlan, fmt.Sprintf(" The plan file is located at %s if you need to reference it.", out.PlanFile)))
	default:
		return false // AskUserQuestion's core text is Claude Code's
	}
	return true
}
