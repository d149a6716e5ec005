package sqlstore

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestPlainStrings reads the lists of strings that the fast path takes,
// refuses what it must leave to encoding/json, and agrees with
// encoding/json on every list it takes.
func TestPlainStrings(t *testing.T) {
	for _, in := range []string{`[]`, ` [ ] `, `["no_soap"]`, `["no_soap", "no_paper"]`, `["a","b" ,"c"]`, `["été"]`, `[""]`} {
		got, ok := plainStrings([]byte(in))
		var want []string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("plainStrings(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{``, `null`, `[`, `["a"`, `["a",]`, `["a" "b"]`, `["a\"b"]`, `["\u00e9"]`, `[1]`, `["a"] x`, `{"a":1}`, "[\"a\tb\"]"} {
		if got, ok := plainStrings([]byte(in)); ok {
			t.Errorf("plainStrings(%s) took it as %q; encoding/json must read it", in, got)
		}
	}
	if got, _ := plainStrings([]byte(`["no_soap"]`)); len(got) != 1 || got[0] != "no_soap" {
		t.Errorf("a tag: %q", got)
	}
}

// FuzzPlainStrings: whatever the fast path takes, encoding/json reads the
// same.
func FuzzPlainStrings(f *testing.F) {
	for _, s := range []string{`[]`, `["no_soap", "no_paper"]`, `["a\"b"]`, `[1]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := plainStrings([]byte(in))
		if !ok {
			return
		}
		var want []string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("plainStrings took %q, which encoding/json refuses: %v", in, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("plainStrings(%q) = %q, encoding/json %q", in, got, want)
		}
	})
}
