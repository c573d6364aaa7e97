package io.dssync.data.table;

/** A training table and the validation table the consensus model is evaluated on, of one shape. */
public record TableSplit(LoadedTable train, LoadedTable validation) {}
