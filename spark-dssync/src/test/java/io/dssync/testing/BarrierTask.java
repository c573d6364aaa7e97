package io.dssync.testing;

import java.io.Serializable;
import org.apache.spark.BarrierTaskContext;

/** The body of one barrier task in a test stage; shipped to executors, so it must be serializable. */
@FunctionalInterface
public interface BarrierTask<T extends Serializable> extends Serializable {
  T run(BarrierTaskContext ctx) throws Exception;
}
