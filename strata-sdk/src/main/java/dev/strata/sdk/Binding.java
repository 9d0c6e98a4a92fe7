package dev.strata.sdk;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class that {@code strata sdk generate} wrote from a provider schema. Such classes are
 * compiled with the user's program, yet a value they create was asked for by the line that called
 * them: {@link Site} skips their frames, so problems point at the program, not at the bindings.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Binding {
    /** The Terraform type the class declares ({@code aws_vpc}), or the nested block or provider it is for. */
    String value();
}
