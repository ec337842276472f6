package tools

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/tool"
)

//go:embed ask_user_question.md
var askUserQuestionDescription string

// QuestionOption is one choice of a question.
type QuestionOption struct {
	Label       string `json:"label" jsonschema:"the text the user sees and selects: concise, 1 to 5 words"`
	Description string `json:"description" jsonschema:"what this option means or what happens if chosen"`
}

// Question is one question of ask_user_question.
type Question struct {
	Question    string           `json:"question" jsonschema:"the complete question, ending with a question mark"`
	Header      string           `json:"header" jsonschema:"a very short label shown as a chip (at most 12 characters)"`
	Options     []QuestionOption `json:"options" jsonschema:"2 to 4 distinct choices; the user can always answer in their own words instead"`
	MultiSelect bool             `json:"multiSelect" jsonschema:"let the user choose several options"`
}

// QuestionMetadata is metadata of a question set, not shown to the user.
type QuestionMetadata struct {
	Source string `json:"source,omitempty" jsonschema:"Optional identifier for the source of this question (e.g., \"remember\" for /remember command). Used for analytics tracking."`
}

// AskUserQuestionInput is the input of ask_user_question.
type AskUserQuestionInput struct {
	Questions []Question `json:"questions" jsonschema:"1 to 4 questions to ask the user"`
	// Answers and Metadata are in Claude Code's schema; answers the model
	// sends are ignored: only the user answers.
	Answers  map[string]string `json:"answers,omitempty" jsonschema:"answers collected by the host; ignored in a call"`
	Metadata *QuestionMetadata `json:"metadata,omitempty" jsonschema:"optional metadata for tracking, not shown to the user"`
}

// AskUserQuestionOutput is what ask_user_question returns.
type AskUserQuestionOutput struct {
	Questions []Question `json:"questions"`
	// Answers maps each question to the user's answer.
	Answers map[string]string `json:"answers"`
}

// Content is the text the model reads, in Claude Code's words.
func (o *AskUserQuestionOutput) Content() []tool.Content {
	var parts []string
	for _, q := range o.Questions {
		// Quoted as Claude Code quotes them: as given, nothing escaped.
		parts = append(parts, `"`+q.Question+`"="`+o.Answers[q.Question]+`"`)
	}
	return []tool.Content{tool.Text("User has answered your questions: " + strings.Join(parts, ", ") + ". You can now continue with the user's answers in mind.")}
}

// AskUserQuestion returns the ask_user_question tool.
func AskUserQuestion() tool.Tool {
	return tool.New(tool.Spec[AskUserQuestionInput]{
		Name:            "ask_user_question",
		Title:           "Ask the user",
		Description:     askUserQuestionDescription,
		ReadOnly:        true,
		AsksUser:        true,
		ConcurrencySafe: func(AskUserQuestionInput) bool { return false },
		Validate:        validateQuestions,
	}, func(ctx context.Context, env *tool.Env, in AskUserQuestionInput) (*AskUserQuestionOutput, error) {
		p := tool.Prompt{Message: "The assistant has questions for you."}
		for _, q := range in.Questions {
			tq := tool.Question{Question: q.Question, Header: q.Header, MultiSelect: q.MultiSelect}
			for _, o := range q.Options {
				tq.Options = append(tq.Options, tool.Option{Label: o.Label, Description: o.Description})
			}
			p.Questions = append(p.Questions, tq)
		}
		reply, err := ask(ctx, env, p)
		if err != nil {
			if errors.Is(err, tool.ErrNoUser) {
				return nil, toolErr(tool.PermissionDenied, "%v, so these questions cannot be answered; decide yourself from what you know and say which assumptions you made, or stop and write the questions in your reply", err)
			}
			return nil, err
		}
		if !reply.Accepted {
			return nil, toolErr(tool.PermissionDenied, "the user declined to answer the questions. %s", feedbackText(reply.Feedback)).With(DetailRejected, "true")
		}
		out := &AskUserQuestionOutput{Questions: in.Questions, Answers: map[string]string{}}
		for _, q := range in.Questions {
			a, ok := reply.Answers[q.Question]
			if !ok || strings.TrimSpace(a) == "" {
				return nil, toolErr(tool.PermissionDenied, "the user did not answer %q; ask again or decide yourself and say so", q.Question).With(DetailRejected, "true")
			}
			out.Answers[q.Question] = a
		}
		return out, nil
	})
}

func validateQuestions(_ context.Context, _ *tool.Env, in AskUserQuestionInput) (AskUserQuestionInput, error) {
	if n := len(in.Questions); n < 1 || n > 4 {
		return in, toolErr(tool.InvalidInput, "%s has %d questions; ask 1 to 4", param("questions"), n)
	}
	seen := map[string]bool{}
	for i, q := range in.Questions {
		at := fmt.Sprintf("questions[%d]", i)
		if strings.TrimSpace(q.Question) == "" {
			return in, toolErr(tool.InvalidInput, "%s is empty; write the complete question", param(at+".question"))
		}
		if seen[q.Question] {
			return in, toolErr(tool.InvalidInput, "%s repeats the question %q; question texts must be unique", param(at+".question"), q.Question)
		}
		seen[q.Question] = true
		if n := len(q.Options); n < 2 || n > 4 {
			return in, toolErr(tool.InvalidInput, "%s has %d options; give 2 to 4", param(at+".options"), n)
		}
		labels := map[string]bool{}
		for j, o := range q.Options {
			if strings.TrimSpace(o.Label) == "" {
				return in, toolErr(tool.InvalidInput, "%s is empty; give each option a short label", param(fmt.Sprintf("%s.options[%d].label", at, j)))
			}
			if labels[o.Label] {
				return in, toolErr(tool.InvalidInput, "%s repeats the label %q; option labels must be unique within a question", param(fmt.Sprintf("%s.options[%d].label", at, j)), o.Label)
			}
			labels[o.Label] = true
		}
	}
	return in, nil
}
