package openapitest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// The tests below check the service's document itself: that it is valid,
// that it follows the conventions every operation shares, and that its
// schemas match the Go wire types field by field.

// TestDocumentExamples validates the examples of every component schema,
// which kin-openapi's Validate leaves unchecked in OpenAPI 3.1 (it checks
// the examples of media types, parameters and headers).
func TestDocumentExamples(t *testing.T) {
	v := shared(t)
	opts := append(v.doc.GetSchemaValidationOptions(), openapi3.EnableJSONSchema2020(), openapi3.MultiErrors())
	n := 0
	for name, ref := range v.doc.Components.Schemas {
		for i, ex := range ref.Value.Examples {
			n++
			if err := ref.Value.VisitJSON(ex, opts...); err != nil {
				t.Errorf("schema %s: example %d does not match: %v", name, i, err)
			}
		}
	}
	if n < 15 {
		t.Errorf("only %d schema examples; the main objects should have one each", n)
	}
}

// The operations that need no credential, and those that no rate limiter
// counts (their responses carry no rate-limit headers).
var (
	publicOps = map[string]bool{
		"GET /openapi.json":    true,
		"GET /q/{code}":        true,
		"POST /q/{code}":       true,
		"GET /q/{code}/thanks": true,
		"POST /kiosk/pair":     true,
	}
	uncountedOps = map[string]bool{"GET /q/{code}/thanks": true}
)

// TestDocumentConventions checks what every operation must have.
func TestDocumentConventions(t *testing.T) {
	v := shared(t)
	ids := map[string]string{}
	for path, item := range v.doc.Paths.Map() {
		atRoot := v.rootPaths[path]
		if atRoot != (strings.HasPrefix(path, "/q/") || strings.HasPrefix(path, "/kiosk/")) {
			t.Errorf("%s: the visitor and kiosk paths, and only they, must be served at the root", path)
		}
		for method, op := range item.Operations() {
			name := method + " " + path
			if op.OperationID == "" || op.Summary == "" || op.Description == "" || len(op.Tags) == 0 {
				t.Errorf("%s: needs operationId, summary, description and tags", name)
			}
			if other, dup := ids[op.OperationID]; dup {
				t.Errorf("%s: operationId %s is also used by %s", name, op.OperationID, other)
			}
			ids[op.OperationID] = name
			public := op.Security != nil && len(*op.Security) == 0
			if public != publicOps[name] {
				t.Errorf("%s: public is %v; only %v may be public", name, public, slices.Sorted(maps.Keys(publicOps)))
			}
			if kiosk := strings.HasPrefix(path, "/kiosk/") && !public; kiosk != usesScheme(op, "kioskAuth") {
				t.Errorf("%s: the kiosk endpoints, and only they, use the security scheme kioskAuth", name)
			}
			if !public && !atRoot && op.Security != nil {
				t.Errorf("%s: an API operation uses the document's security (bearerAuth)", name)
			}
			want := []string{"500"}
			if !uncountedOps[name] {
				want = append(want, "429")
			}
			if !public {
				want = append(want, "401")
			}
			if op.RequestBody != nil {
				want = append(want, "400", "413", "415", "422")
			}
			for _, code := range want {
				if op.Responses.Value(code) == nil {
					t.Errorf("%s: no %s response", name, code)
				}
			}
			for code, r := range op.Responses.Map() {
				checkResponse(t, name, code, r.Value, atRoot, uncountedOps[name], strings.HasPrefix(path, "/q/"))
			}
		}
	}
}

// usesScheme reports whether op requires exactly the security scheme name.
func usesScheme(op *openapi3.Operation, name string) bool {
	if op.Security == nil || len(*op.Security) != 1 {
		return false
	}
	req := (*op.Security)[0]
	_, ok := req[name]
	return ok && len(req) == 1
}

// checkResponse checks one response of op. A response of an operation
// served at the root, or of one that makes a one-time code (a pairing
// code, an invitation) or a workspace or federation, has no Location on
// a 201 (nothing it makes has a URL of its own in the API); one of an
// uncounted operation has no
// rate-limit headers; an error of a page may be a page (text/html)
// rather than a problem, or plain text when even the page failed.
func checkResponse(t *testing.T, op, code string, r *openapi3.Response, atRoot, uncounted, page bool) {
	t.Helper()
	status, _ := strconv.Atoi(code)
	headers := []string{"X-Request-Id"}
	if !uncounted {
		headers = append(headers, "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")
	}
	switch {
	case status == 401:
		headers = append(headers, "WWW-Authenticate")
	case status == 429:
		headers = append(headers, "Retry-After")
	case status == 201 && !atRoot && op != "POST /kiosks/pairing-codes" && op != "POST /invites" &&
		op != "POST /workspaces" && op != "POST /federations", status == 303:
		headers = append(headers, "Location")
	}
	for _, h := range headers {
		ref := r.Headers[h]
		if ref == nil {
			t.Errorf("%s %s: no %s header", op, code, h)
			continue
		}
		optional := status == 500 && strings.HasPrefix(h, "X-RateLimit-")
		if ref.Value.Required == optional {
			t.Errorf("%s %s: header %s has required %v", op, code, h, ref.Value.Required)
		}
	}
	for h, ref := range r.Headers {
		if uncounted && strings.HasPrefix(h, "X-RateLimit-") && ref.Value.Required {
			t.Errorf("%s %s: an uncounted operation cannot require %s", op, code, h)
		}
	}
	if status >= 400 {
		allowed := []string{"application/problem+json"}
		if page {
			allowed = append(allowed, "text/html")
			if status == 500 {
				allowed = append(allowed, "text/plain")
			}
		}
		for mt := range r.Content {
			if !slices.Contains(allowed, mt) {
				t.Errorf("%s %s: an error must be one of %v, not %s", op, code, allowed, mt)
			}
		}
		if len(r.Content) == 0 || (!page && r.Content["application/problem+json"] == nil) {
			t.Errorf("%s %s: an error must be application/problem+json", op, code)
		}
	}
	if html := r.Content["text/html"]; html != nil && (html.Schema == nil || html.Schema.Ref != "#/components/schemas/HTMLPage") {
		t.Errorf("%s %s: a page's schema is HTMLPage", op, code)
	}
	if (status == 204 || status == 303) && len(r.Content) != 0 {
		t.Errorf("%s %s: a %d has no body", op, code, status)
	}
}

// TestDocumentCodes checks the problem codes against shared/feedback's
// error.go, where they are constants.
func TestDocumentCodes(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "../../../shared/feedback/error.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || !strings.HasPrefix(vs.Names[0].Name, "E") || len(vs.Values) != 1 {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, _ := strconv.Unquote(lit.Value)
			codes = append(codes, s)
		}
		return true
	})
	if len(codes) < 10 {
		t.Fatalf("found only the codes %v in error.go", codes)
	}
	v := shared(t)
	checkEnum(t, "Problem.code", v.doc.Components.Schemas["Problem"].Value.Properties["code"].Value, codes)
	checkEnum(t, "EventKind", v.doc.Components.Schemas["EventKind"].Value, feedback.EventKinds)
	checkEnum(t, "HygieneTag", v.doc.Components.Schemas["HygieneTag"].Value, feedback.HygieneTags)
	checkEnum(t, "Status", v.doc.Components.Schemas["Status"].Value, []string{
		string(feedback.StatusDraft), string(feedback.StatusActive), string(feedback.StatusPaused),
		string(feedback.StatusClosed), string(feedback.StatusArchived)})
	checkEnum(t, "Source", v.doc.Components.Schemas["Source"].Value,
		[]string{string(feedback.SourceQR), string(feedback.SourceKiosk)})
	checkEnum(t, "FormKind", v.doc.Components.Schemas["FormKind"].Value,
		[]string{string(feedback.FormHygiene), string(feedback.FormReview), string(feedback.FormSurvey)})
	checkEnum(t, "DeliveryStatus", v.doc.Components.Schemas["DeliveryStatus"].Value, []string{
		string(feedback.DeliveryPending), string(feedback.DeliverySucceeded), string(feedback.DeliveryFailed)})
	checkEnum(t, "Poster.status", v.doc.Components.Schemas["Poster"].Value.Properties["status"].Value,
		[]string{string(feedback.PosterActive), string(feedback.PosterRevoked)})
}

func checkEnum(t *testing.T, name string, s *openapi3.Schema, want []string) {
	t.Helper()
	var got []string
	for _, e := range s.Enum {
		got = append(got, e.(string))
	}
	sort.Strings(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("%s: enum %v, want %v", name, got, want)
	}
}

// TestDocumentLimits checks the paging and submission limits against
// shared/feedback.
func TestDocumentLimits(t *testing.T) {
	p := shared(t).doc.Components.Parameters
	page, perPage := p["Page"].Value.Schema.Value, p["PerPage"].Value.Schema.Value
	if *page.Max != feedback.MaxPage || *page.Min != 1 || page.Default != float64(1) {
		t.Errorf("page: min %v max %v default %v", *page.Min, *page.Max, page.Default)
	}
	if *perPage.Max != feedback.MaxPerPage || *perPage.Min != 1 || perPage.Default != float64(feedback.DefaultPerPage) {
		t.Errorf("per_page: min %v max %v default %v", *perPage.Min, *perPage.Max, perPage.Default)
	}
	prop := func(schemaName, name string) *openapi3.Schema {
		if s := schema(t, schemaName); s != nil && s.Properties[name] != nil {
			return s.Properties[name].Value
		}
		t.Fatalf("no property %s.%s", schemaName, name)
		return nil
	}
	for _, tt := range []struct {
		name string
		got  *uint64
		want int
	}{
		{"SyncRequest.submissions maxItems", prop("SyncRequest", "submissions").MaxItems, feedback.MaxSyncBatch},
		{"SyncResponse.results maxItems", prop("SyncResponse", "results").MaxItems, feedback.MaxSyncBatch},
		{"Submission.comment maxLength", prop("Submission", "comment").MaxLength, max(feedback.MaxHygieneComment, feedback.MaxReviewComment)},
		{"SubmissionForm.comment maxLength", prop("SubmissionForm", "comment").MaxLength, max(feedback.MaxHygieneComment, feedback.MaxReviewComment)},
		{"Submission.contact_email maxLength", prop("Submission", "contact_email").MaxLength, feedback.MaxEmail},
		{"SubmissionForm.contact_email maxLength", prop("SubmissionForm", "contact_email").MaxLength, feedback.MaxEmail},
		{"Kiosk.name maxLength", prop("Kiosk", "name").MaxLength, feedback.MaxKioskName},
	} {
		if tt.got == nil || *tt.got != uint64(tt.want) {
			t.Errorf("%s is %s, want %d", tt.name, show(tt.got), tt.want)
		}
	}
}

// show formats a limit of a schema, which may be unset.
func show(n *uint64) string {
	if n == nil {
		return "unset"
	}
	return strconv.FormatUint(*n, 10)
}

// TestDocumentWireTypes checks every schema of a wire type against the Go
// type: the same JSON field names; required exactly the fields the encoder
// always writes (no omitempty); null allowed exactly for pointers.
func TestDocumentWireTypes(t *testing.T) {
	types := map[string]any{
		"Review":              feedback.Review{},
		"ReviewResponse":      feedback.ReviewResponse{},
		"HygieneSubmission":   feedback.HygieneSubmission{},
		"SurveyResponse":      feedback.SurveyResponse{},
		"Survey":              feedback.Survey{},
		"Question":            feedback.Question{},
		"Option":              feedback.Option{},
		"Location":            feedback.Location{},
		"Poster":              feedback.Poster{},
		"WebhookSubscription": feedback.WebhookSubscription{},
		"WebhookDelivery":     feedback.WebhookDelivery{},
		"DeliveryAttempt":     feedback.DeliveryAttempt{},
		"StatusChange":        feedback.StatusChange{},
		"Event":               feedback.Event{},
		"Kiosk":               feedback.Kiosk{},
		"PairingCode":         feedback.PairingCode{},
		"Problem":             feedback.Problem{},
		"InvalidParam":        feedback.InvalidParam{},
		"Meta":                feedback.Meta{},
		"HygienePage":         feedback.Page[feedback.HygieneSubmission]{},
		"ReviewPage":          feedback.Page[feedback.Review]{},
		"ReviewResponsePage":  feedback.Page[feedback.ReviewResponse]{},
		"SurveyPage":          feedback.Page[feedback.Survey]{},
		"SurveyResponsePage":  feedback.Page[feedback.SurveyResponse]{},
		"LocationPage":        feedback.Page[feedback.Location]{},
		"PosterPage":          feedback.Page[feedback.Poster]{},
		"WebhookPage":         feedback.Page[feedback.WebhookSubscription]{},
		"DeliveryPage":        feedback.Page[feedback.WebhookDelivery]{},
		"KioskPage":           feedback.Page[feedback.Kiosk]{},
		"Me":                  feedback.Me{},
		"Membership":          feedback.Membership{},
		"Session":             feedback.Session{},
		"SessionPage":         feedback.Page[feedback.Session]{},
		"AuditEntry":          feedback.AuditEntry{},
		"AuditPage":           feedback.Page[feedback.AuditEntry]{},
		"APIToken":            feedback.APIToken{},
		"APITokenPage":        feedback.Page[feedback.APIToken]{},
		"Member":              feedback.Member{},
		"MemberPage":          feedback.Page[feedback.Member]{},
		"Invite":              feedback.Invite{},
		"Workspace":           feedback.Workspace{},
		"WorkspacePage":       feedback.Page[feedback.Workspace]{},
		"Federation":          feedback.Federation{},
		"FederationPage":      feedback.Page[feedback.Federation]{},
		"Pairing":             feedback.Pairing{},
		"FormView":            feedback.FormView{},
		"SyncResult":          feedback.SyncResult{},
		"SyncResponse":        feedback.SyncResponse{},
		"EventList":           feedback.EventList{},
		// WebhookTestData is the data server/api writes for webhook.test.
		"WebhookTestData": struct {
			WebhookID string `json:"webhook_id"`
			Message   string `json:"message"`
		}{},
		"KioskConfig": feedback.KioskConfig{},
		// NewAPIToken is server/api's NewAPIToken: the token and its value.
		"NewAPIToken": struct {
			feedback.APIToken
			Token string `json:"token"`
		}{},
	}
	for name, typ := range types {
		if s := schema(t, name); s != nil {
			checkObject(t, name, s, jsonFields(reflect.TypeOf(typ)))
		}
	}

	// Bodies: the schema may leave out what the server refuses anyway
	// (status on create), and never requires what the Go type may omit.
	inputs := map[string]any{
		"ReviewCreate":      feedback.ReviewInput{},
		"ReviewUpdate":      feedback.ReviewInput{},
		"SurveyCreate":      feedback.SurveyInput{},
		"SurveyUpdate":      feedback.SurveyInput{},
		"QuestionInput":     feedback.Question{},
		"OptionInput":       feedback.Option{},
		"LocationCreate":    feedback.LocationInput{},
		"LocationUpdate":    feedback.LocationInput{},
		"PosterCreate":      feedback.PosterInput{},
		"PairingCodeCreate": feedback.PairingCodeInput{},
		"WebhookCreate":     feedback.WebhookInput{},
		"WebhookUpdate":     feedback.WebhookUpdate{},
		"Submission":        feedback.Submission{},
		"PairRequest":       feedback.PairRequest{},
		"SyncRequest":       feedback.SyncRequest{},
		"Heartbeat":         feedback.Heartbeat{},
		"MemberRole":        feedback.MemberRole{},
		"WorkspaceCreate":   feedback.WorkspaceInput{},
		"FederationCreate":  feedback.FederationInput{},
		// TokenCreate is the body server/api decodes for POST /tokens.
		"TokenCreate": struct {
			Name string `json:"name"`
		}{},
	}
	for name, typ := range inputs {
		s := schema(t, name)
		if s == nil {
			continue
		}
		fields := jsonFields(reflect.TypeOf(typ))
		if s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has {
			t.Errorf("%s: a body must set additionalProperties: false, as the server rejects unknown fields", name)
		}
		for p := range s.Properties {
			if _, ok := fields[p]; !ok {
				t.Errorf("%s: property %s is not a field of %T", name, p, typ)
			}
		}
		if (strings.HasSuffix(name, "Update") || name == "Submission") && len(s.Properties) != len(fields) {
			t.Errorf("%s: has %d properties, %T has %d fields", name, len(s.Properties), typ, len(fields))
		}
	}
}

// TestDocumentWebhooks checks the webhooks section, which describes what a
// receiver gets: one POST per event kind of shared/feedback, without the
// API's bearer token, with the Standard Webhooks headers, the Event
// envelope of that kind as its body, an example of it, and what each answer
// does.
func TestDocumentWebhooks(t *testing.T) {
	v := shared(t)
	if got, want := slices.Sorted(maps.Keys(v.doc.Webhooks)), slices.Sorted(slices.Values(feedback.EventKinds)); !slices.Equal(got, want) {
		t.Errorf("webhooks has the entries %v, want one per event kind %v", got, want)
	}
	opts := append(v.doc.GetSchemaValidationOptions(), openapi3.EnableJSONSchema2020(), openapi3.MultiErrors())
	for name, item := range v.doc.Webhooks {
		if len(item.Operations()) != 1 || item.Post == nil {
			t.Errorf("webhook %s: want exactly one operation, POST", name)
			continue
		}
		op := item.Post
		if op.OperationID == "" || op.Summary == "" || op.Description == "" || !slices.Contains(op.Tags, "Webhooks") {
			t.Errorf("webhook %s: needs operationId, summary, description and the tag Webhooks", name)
		}
		if op.Security == nil || len(*op.Security) != 0 {
			t.Errorf("webhook %s: a delivery carries no API token; want security: []", name)
		}
		var headers []string
		for _, p := range op.Parameters {
			if p.Value.In == openapi3.ParameterInHeader && p.Value.Required {
				headers = append(headers, p.Value.Name)
			}
		}
		if want := []string{"webhook-id", "webhook-signature", "webhook-timestamp"}; !slices.Equal(slices.Sorted(slices.Values(headers)), want) {
			t.Errorf("webhook %s: requires the headers %v, want %v", name, headers, want)
		}
		if op.RequestBody == nil || op.RequestBody.Value.Content["application/json"] == nil {
			t.Errorf("webhook %s: no application/json body", name)
			continue
		}
		mt := op.RequestBody.Value.Content["application/json"]
		body := mt.Schema.Value
		// The schema is $ref Event with sibling properties, which the
		// loader puts in a conjunct of allOf.
		typed := slices.ContainsFunc(append(openapi3.SchemaRefs{mt.Schema}, body.AllOf...), func(s *openapi3.SchemaRef) bool {
			p := s.Value.Properties["type"]
			return p != nil && p.Value.Const == name && s.Value.Properties["data"] != nil
		})
		if mt.Schema.Ref != "#/components/schemas/Event" || !typed {
			t.Errorf("webhook %s: the body must be $ref Event with a type of const %s and its data", name, name)
		}
		ex, ok := mt.Example.(map[string]any)
		if !ok || ex["type"] != name {
			t.Errorf("webhook %s: needs an example of its body, of type %s", name, name)
		} else if err := body.VisitJSON(ex, opts...); err != nil {
			t.Errorf("webhook %s: the example does not match: %v", name, err)
		}
		for _, code := range []string{"2XX", "410", "4XX", "5XX"} {
			if op.Responses.Value(code) == nil {
				t.Errorf("webhook %s: does not say what a %s answer does", name, code)
			}
		}
	}
}

// TestDocumentSubmissionForm checks the form fields of the visitor page
// against shared/feedback's formvalues.go: the fields of Submission but
// answers, and one field per question.
func TestDocumentSubmissionForm(t *testing.T) {
	form := schema(t, "SubmissionForm")
	if form == nil {
		t.FailNow()
	}
	fields := []string{feedback.FieldID, feedback.FieldCapturedAt, feedback.FieldLanguage, feedback.FieldRating,
		feedback.FieldTags, feedback.FieldComment, feedback.FieldContactEmail, feedback.FieldContactConsent}
	if got := slices.Sorted(maps.Keys(form.Properties)); !slices.Equal(got, slices.Sorted(slices.Values(fields))) {
		t.Errorf("SubmissionForm has the fields %v, want %v", got, fields)
	}
	for _, f := range fields {
		if schema(t, "Submission").Properties[f] == nil {
			t.Errorf("form field %s is not a property of Submission", f)
		}
	}
	if form.AdditionalProperties.Has == nil || *form.AdditionalProperties.Has {
		t.Error("SubmissionForm: must set additionalProperties: false, as the server rejects unknown fields")
	}
	answer := "^" + regexp.QuoteMeta(feedback.AnswerFieldPrefix)
	if len(form.PatternProperties) != 1 {
		t.Fatalf("SubmissionForm: want one pattern property, for the answers")
	}
	for p := range form.PatternProperties {
		if !strings.HasPrefix(p, answer) {
			t.Errorf("SubmissionForm: pattern property %s, want one starting with %s", p, answer)
		}
	}
}

// schema returns the component schema name, failing t when there is none.
func schema(t *testing.T, name string) *openapi3.Schema {
	t.Helper()
	ref := shared(t).doc.Components.Schemas[name]
	if ref == nil {
		t.Errorf("no schema %s", name)
		return nil
	}
	return ref.Value
}

// field is what the JSON encoder does with one struct field.
type field struct {
	omitempty bool
	pointer   bool
}

// jsonFields returns the JSON fields of a struct type as encoding/json
// sees them, embedded structs flattened.
func jsonFields(typ reflect.Type) map[string]field {
	out := map[string]field{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = field{omitempty: slices.Contains(strings.Split(opts, ","), "omitempty"), pointer: f.Type.Kind() == reflect.Pointer}
	}
	return out
}

func checkObject(t *testing.T, name string, s *openapi3.Schema, fields map[string]field) {
	t.Helper()
	if s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has {
		t.Errorf("%s: must set additionalProperties: false, so that an undocumented field fails", name)
	}
	for p, f := range fields {
		prop := s.Properties[p]
		if prop == nil {
			t.Errorf("%s: the Go type has field %s, the schema has no such property", name, p)
			continue
		}
		if required := slices.Contains(s.Required, p); required == f.omitempty {
			t.Errorf("%s.%s: required is %v, but omitempty is %v", name, p, required, f.omitempty)
		}
		// A nil pointer with omitempty is left out, never null.
		if nullable := prop.Value.Type != nil && prop.Value.Type.IncludesNull(); nullable != (f.pointer && !f.omitempty) {
			t.Errorf("%s.%s: null allowed is %v, but the Go field is a pointer: %v, with omitempty: %v",
				name, p, nullable, f.pointer, f.omitempty)
		}
	}
	for p := range s.Properties {
		if _, ok := fields[p]; !ok {
			t.Errorf("%s: property %s is not a field of the Go type", name, p)
		}
	}
}
