package io.dssync.models;

import ai.djl.nn.Block;
import io.dssync.errors.Errors;
import io.dssync.errors.ModelErrors;
import io.dssync.spark.SparkEnvs;
import java.lang.reflect.InvocationTargetException;

/**
 * A user's {@link ModelFactory}, named by its class and loaded where the replica is built (on each executor,
 * from the jars Spark shipped with the application).
 */
public record FactoryModel(String className) implements BlockSource {
  @Override
  public Block build(ModelSpec spec) {
    return factory().build(spec);
  }

  @Override
  public Models.Input input() {
    return factory().input();
  }

  @Override
  public String describe() {
    return "factory " + className;
  }

  @Override
  public LossKind defaultLoss() {
    return factory().defaultLoss();
  }

  @Override
  public void check(ModelSpec spec) {
    Models.checkCommon(spec);
  }

  /** A new instance of the class, from the context class loader (where Spark puts the application's jars). */
  public ModelFactory factory() {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    Class<?> type;
    try {
      type = Class.forName(className, true, loader != null ? loader : FactoryModel.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw ModelErrors.factoryNotFound(className, SparkEnvs.describe(), e);
    }
    if (!ModelFactory.class.isAssignableFrom(type)) {
      throw Errors.invalidFlag("modelFactory", className, "the class does not implement "
          + ModelFactory.class.getName(), "Implement io.dssync.models.ModelFactory (see docs/own-model.md).");
    }
    try {
      return (ModelFactory) type.getConstructor().newInstance();
    } catch (NoSuchMethodException | InstantiationException | IllegalAccessException e) {
      throw Errors.invalidFlag("modelFactory", className, "it needs a public constructor without arguments ("
          + e + ")", "Add a public no-argument constructor to the class.");
    } catch (InvocationTargetException e) {
      throw Errors.invalidFlag("modelFactory", className, "its constructor threw " + e.getCause(),
          "Fix the constructor of the factory.");
    }
  }
}
