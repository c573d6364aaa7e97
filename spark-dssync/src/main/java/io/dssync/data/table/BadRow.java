package io.dssync.data.table;

/**
 * One row's features or label cannot make an example: {@code problem} says why, {@code fix} what
 * to do. Thrown per bad row and caught at once (under {@code --bad-records skip} possibly millions
 * of times), so it carries no stack trace.
 */
final class BadRow extends RuntimeException {
  final String problem;
  final String fix;

  BadRow(String problem, String fix) {
    super(problem, null, false, false);
    this.problem = problem;
    this.fix = fix;
  }
}
