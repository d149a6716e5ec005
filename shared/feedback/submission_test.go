package feedback_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

const subID = "0193a5b2-7c3d-7e4f-8a1b-2c3d4e5f6a7b"

func testSurvey() *feedback.Survey {
	en := func(s string) feedback.Labels { return feedback.Labels{"en": s} }
	return &feedback.Survey{Questions: []feedback.Question{
		{ID: "r", Type: feedback.QuestionRating, Required: true, Labels: en("Rating")},
		{ID: "n", Type: feedback.QuestionNPS, Labels: en("NPS")},
		{ID: "s", Type: feedback.QuestionSingleChoice, Labels: en("One"), Options: []feedback.Option{{ID: "a", Labels: en("A")}, {ID: "b", Labels: en("B")}}},
		{ID: "m", Type: feedback.QuestionMultiChoice, Labels: en("Many"), Options: []feedback.Option{{ID: "a", Labels: en("A")}, {ID: "b", Labels: en("B")}}},
		{ID: "t", Type: feedback.QuestionText, Labels: en("Text")},
		{ID: "y", Type: feedback.QuestionYesNo, Labels: en("Yes/no")},
	}}
}

func decode(t *testing.T, body string) feedback.Submission {
	t.Helper()
	var s feedback.Submission
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return s
}

func TestSubmissionValidate(t *testing.T) {
	tests := []struct {
		name    string
		form    feedback.FormKind
		body    string
		invalid []string
	}{
		{"hygiene minimal", feedback.FormHygiene, `{"id":"` + subID + `","rating":5}`, nil},
		{"hygiene full", feedback.FormHygiene, `{"id":"` + subID + `","rating":1,"tags":["no_soap","bad_smell"],"comment":" smelly ","language":"de-CH","captured_at":"2026-11-21T11:59:00Z"}`, nil},
		{"hygiene rating 0", feedback.FormHygiene, `{"id":"` + subID + `","rating":0}`, []string{"rating"}},
		{"hygiene rating 6", feedback.FormHygiene, `{"id":"` + subID + `","rating":6}`, []string{"rating"}},
		{"hygiene no rating", feedback.FormHygiene, `{"id":"` + subID + `"}`, []string{"rating"}},
		{"hygiene bad id", feedback.FormHygiene, `{"id":"x","rating":3}`, []string{"id"}},
		{"hygiene unknown tag", feedback.FormHygiene, `{"id":"` + subID + `","rating":3,"tags":["wet"]}`, []string{"tags[0]"}},
		{"hygiene repeated tag", feedback.FormHygiene, `{"id":"` + subID + `","rating":3,"tags":["no_soap","no_soap"]}`, []string{"tags[1]"}},
		{"hygiene comment too long", feedback.FormHygiene, `{"id":"` + subID + `","rating":3,"comment":"` + strings.Repeat("é", 501) + `"}`, []string{"comment"}},
		{"hygiene comment 500 runes", feedback.FormHygiene, `{"id":"` + subID + `","rating":3,"comment":"` + strings.Repeat("é", 500) + `"}`, nil},
		{"hygiene control char", feedback.FormHygiene, `{"id":"` + subID + `","rating":3,"comment":"a\u0000b"}`, []string{"comment"}},
		{"hygiene with answers", feedback.FormHygiene, `{"id":"` + subID + `","rating":3,"answers":{}}`, []string{"answers"}},
		{"hygiene future", feedback.FormHygiene, `{"id":"` + subID + `","rating":3,"captured_at":"2026-11-21T12:11:00Z"}`, []string{"captured_at"}},
		{"hygiene too old", feedback.FormHygiene, `{"id":"` + subID + `","rating":3,"captured_at":"2026-10-01T00:00:00Z"}`, []string{"captured_at"}},
		{"hygiene bad language", feedback.FormHygiene, `{"id":"` + subID + `","rating":3,"language":"english!"}`, []string{"language"}},
		{"review full", feedback.FormReview, `{"id":"` + subID + `","rating":4,"comment":"fine","contact_email":"Ann <ann@example.com>","contact_consent":true}`, []string{"contact_email"}},
		{"review email", feedback.FormReview, `{"id":"` + subID + `","rating":4,"contact_email":"ann@example.com","contact_consent":true}`, nil},
		{"review email without consent", feedback.FormReview, `{"id":"` + subID + `","rating":4,"contact_email":"ann@example.com"}`, []string{"contact_consent"}},
		{"review consent without email", feedback.FormReview, `{"id":"` + subID + `","rating":4,"contact_consent":true}`, []string{"contact_email"}},
		{"review bad email", feedback.FormReview, `{"id":"` + subID + `","rating":4,"contact_email":"nope","contact_consent":true}`, []string{"contact_email"}},
		{"review tags", feedback.FormReview, `{"id":"` + subID + `","rating":4,"tags":["no_soap"]}`, []string{"tags"}},
		{"review comment 2000", feedback.FormReview, `{"id":"` + subID + `","rating":4,"comment":"` + strings.Repeat("x", 2000) + `"}`, nil},
		{"review comment 2001", feedback.FormReview, `{"id":"` + subID + `","rating":4,"comment":"` + strings.Repeat("x", 2001) + `"}`, []string{"comment"}},
		{"survey all types", feedback.FormSurvey, `{"id":"` + subID + `","answers":{"r":5,"n":0,"s":"a","m":["b","a"],"t":"hi","y":false}}`, nil},
		{"survey required missing", feedback.FormSurvey, `{"id":"` + subID + `","answers":{"n":10}}`, []string{"answers.r"}},
		{"survey required null", feedback.FormSurvey, `{"id":"` + subID + `","answers":{"r":null}}`, []string{"answers.r"}},
		{"survey wrong types", feedback.FormSurvey, `{"id":"` + subID + `","answers":{"r":"5","n":11,"s":"c","m":["a","a"],"t":5,"y":"yes"}}`,
			[]string{"answers.r", "answers.n", "answers.s", "answers.m", "answers.t", "answers.y"}},
		{"survey unknown question", feedback.FormSurvey, `{"id":"` + subID + `","answers":{"r":3,"zz":1}}`, []string{"answers.zz"}},
		{"survey rating field", feedback.FormSurvey, `{"id":"` + subID + `","rating":3,"answers":{"r":3}}`, []string{"rating"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := decode(t, tt.body)
			err := s.Validate(tt.form, testSurvey(), now)
			var names []string
			for _, p := range feedback.ErrorParams(err) {
				names = append(names, p.Name)
			}
			if len(tt.invalid) == 0 && err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if len(tt.invalid) > 0 && feedback.ErrorCode(err) != feedback.EValidation {
				t.Fatalf("Validate error = %v; want validation_failed naming %v", err, tt.invalid)
			}
			for _, want := range tt.invalid {
				if !strings.Contains(strings.Join(names, " "), want) {
					t.Errorf("invalid params %v lack %q", names, want)
				}
			}
		})
	}
}

func TestSubmissionHashNormalises(t *testing.T) {
	a := decode(t, `{"id":"`+strings.ToUpper(subID)+`","rating":2,"tags":["bad_smell","no_soap"],"comment":" x "}`)
	b := decode(t, `{"id":"`+subID+`","rating":2,"tags":["no_soap","bad_smell"],"comment":"x"}`)
	c := decode(t, `{"id":"`+subID+`","rating":3,"tags":["no_soap","bad_smell"],"comment":"x"}`)
	for _, s := range []*feedback.Submission{&a, &b, &c} {
		if err := s.Validate(feedback.FormHygiene, nil, now); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Hash(), b.Hash()) {
		t.Error("the same submission in another order or case hashes differently")
	}
	if bytes.Equal(b.Hash(), c.Hash()) {
		t.Error("different ratings hash the same")
	}
}

func TestSubmissionFromFormMatchesJSON(t *testing.T) {
	form, _ := url.ParseQuery("id=" + subID + "&q.r=4&q.n=9&q.s=b&q.m=a&q.m=b&q.t=hello&q.y=yes")
	fs, err := feedback.SubmissionFromForm(form, testSurvey())
	if err != nil {
		t.Fatal(err)
	}
	js := decode(t, `{"id":"`+subID+`","answers":{"r":4,"n":9,"s":"b","m":["a","b"],"t":"hello","y":true}}`)
	for _, s := range []*feedback.Submission{&fs, &js} {
		if err := s.Validate(feedback.FormSurvey, testSurvey(), now); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(fs.Hash(), js.Hash()) {
		t.Errorf("form and JSON of one survey response hash differently:\n%s\n%s", mustJSON(fs), mustJSON(js))
	}
}

func TestSubmissionFromFormErrors(t *testing.T) {
	for _, raw := range []string{"rating=x", "evil=1", "contact_consent=maybe", "q.zz=1", "q.r=x"} {
		form, _ := url.ParseQuery(raw)
		if _, err := feedback.SubmissionFromForm(form, testSurvey()); feedback.ErrorCode(err) != feedback.EValidation {
			t.Errorf("SubmissionFromForm(%q) err = %v; want validation_failed", raw, err)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func FuzzSubmissionJSON(f *testing.F) {
	f.Add([]byte(`{"id":"` + subID + `","rating":3,"tags":["no_soap"],"comment":"x"}`))
	f.Add([]byte(`{"id":"` + subID + `","answers":{"r":5,"m":["a"]}}`))
	f.Add([]byte(`{"id":"` + subID + `","rating":4,"contact_email":"a@b.c","contact_consent":true}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, form := range []feedback.FormKind{feedback.FormHygiene, feedback.FormReview, feedback.FormSurvey} {
			var s feedback.Submission
			if json.Unmarshal(body, &s) != nil {
				return
			}
			if err := s.Validate(form, testSurvey(), now); err != nil {
				if feedback.ErrorCode(err) != feedback.EValidation || len(feedback.ErrorParams(err)) == 0 {
					t.Fatalf("invalid submission without params: %v", err)
				}
				continue
			}
			checkValid(t, form, &s)
			again := s
			if err := again.Validate(form, testSurvey(), now); err != nil || !bytes.Equal(again.Hash(), s.Hash()) {
				t.Fatalf("validation is not idempotent for %s: %v", body, err)
			}
		}
	})
}

func checkValid(t *testing.T, form feedback.FormKind, s *feedback.Submission) {
	t.Helper()
	if _, ok := feedback.ParseUUID(s.ID); !ok {
		t.Fatalf("accepted id %q", s.ID)
	}
	if form != feedback.FormSurvey && (s.Rating == nil || *s.Rating < 1 || *s.Rating > 5) {
		t.Fatalf("accepted rating %v for %s", s.Rating, form)
	}
	if form == feedback.FormSurvey && s.Rating != nil {
		t.Fatal("accepted a rating on a survey")
	}
}

func FuzzSubmissionForm(f *testing.F) {
	f.Add("id=" + subID + "&rating=3&tags=no_soap&comment=hi")
	f.Add("id=" + subID + "&q.r=4&q.m=a&q.m=b&q.y=no")
	f.Fuzz(func(t *testing.T, raw string) {
		form, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		s, err := feedback.SubmissionFromForm(form, testSurvey())
		if err != nil {
			if feedback.ErrorCode(err) != feedback.EValidation {
				t.Fatalf("form error with code %q", feedback.ErrorCode(err))
			}
			return
		}
		for _, kind := range []feedback.FormKind{feedback.FormHygiene, feedback.FormReview, feedback.FormSurvey} {
			c := s
			if c.Validate(kind, testSurvey(), now) == nil {
				checkValid(t, kind, &c)
			}
		}
	})
}
