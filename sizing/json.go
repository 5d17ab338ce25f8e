package sizing

// UnmarshalJSON decodes a layout, rejecting unknown keys with an error wrapping
// ErrInvalid.
func (p *Parallel) UnmarshalJSON(data []byte) error {
	type plain Parallel
	v := plain(*p)
	if err := strictJSON(data, &v, "parallel"); err != nil {
		return err
	}
	*p = Parallel(v)
	return nil
}

// UnmarshalJSON decodes a render job, rejecting unknown keys with an error
// wrapping ErrInvalid.
func (r *RenderJob) UnmarshalJSON(data []byte) error {
	type plain RenderJob
	v := plain(*r)
	if err := strictJSON(data, &v, "render job"); err != nil {
		return err
	}
	*r = RenderJob(v)
	return nil
}
