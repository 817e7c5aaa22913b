// The LinkCheck module.
