package io.dssync.collective;

/** One implementation of {@link FloatSums}' operations (same contracts, same floats). */
interface Sums {
  void addInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length);

  void meanOfTwoInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length);

  void divideInto(float[] src, int srcOffset, float[] dst, int dstOffset, int length, int g);

  /**
   * {@link VectorSums} when this JVM resolved the Vector API's module and it computes what the
   * plain loops compute on a sample, else {@link PlainSums}. VectorSums is loaded by name, only
   * then: a JVM without the module cannot link it.
   */
  static Sums fastestUsable() {
    PlainSums plain = new PlainSums();
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
      return plain;
    }
    try {
      Sums vector = (Sums) Class.forName("io.dssync.collective.VectorSums").getDeclaredConstructor().newInstance();
      return agree(vector, plain) ? vector : plain;
    } catch (ReflectiveOperationException | LinkageError e) {
      return plain; // an API this JVM's incubator module no longer has: the plain loops still work
    }
  }

  /** Whether {@code a} and {@code b} give the same bits on a sample with offsets and a tail. */
  static boolean agree(Sums a, Sums b) {
    int length = 67;
    float[] src = new float[length + 3];
    for (int i = 0; i < src.length; i++) {
      src[i] = (i * 0.37f - 11.5f) / (i + 1);
    }
    for (int op = 0; op < 4; op++) {
      float[] x = new float[length + 5];
      float[] y = new float[length + 5];
      for (int i = 0; i < x.length; i++) {
        x[i] = y[i] = i * 1.3f - 40f;
      }
      for (Sums s : new Sums[] {a, b}) {
        float[] dst = s == a ? x : y;
        switch (op) {
          case 0 -> s.addInto(src, 3, dst, 5, length);
          case 1 -> s.meanOfTwoInto(src, 3, dst, 5, length);
          case 2 -> s.divideInto(src, 3, dst, 5, length, 4);
          default -> s.divideInto(src, 3, dst, 5, length, 3);
        }
      }
      if (!java.util.Arrays.equals(x, y)) {
        return false;
      }
    }
    return true;
  }
}
