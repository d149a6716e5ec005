package visitor

import (
	"encoding/json"
	"strconv"
)

// answerStrings turns a JSON answer back into form values: "4", "yes",
// ["a", "b"].
func answerStrings(raw json.RawMessage) []string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch a := v.(type) {
	case float64:
		return []string{strconv.Itoa(int(a))}
	case bool:
		if a {
			return []string{"yes"}
		}
		return []string{"no"}
	case string:
		return []string{a}
	case []any:
		out := make([]string, 0, len(a))
		for _, x := range a {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
