package dashboard

// WorkspacePages returns the paths of a workspace's pages below
// /w/{slug}/, in the order of the route table: "" is the overview. The
// browser tests open each one, so that a page added to the table cannot
// go untested. A page that shows one item (an alert) is its path and
// "/{id}".
func WorkspacePages() []string {
	var out []string
	for _, r := range routes {
		switch {
		case r.workspace && r.param:
			out = append(out, r.path+"/{id}")
		case r.workspace:
			out = append(out, r.path)
		}
	}
	return out
}
