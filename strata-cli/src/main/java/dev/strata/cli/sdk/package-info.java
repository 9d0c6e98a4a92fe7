/**
 * Running a Java SDK program directly: {@code strata plan} in a directory that holds the program's jar
 * (or a Maven project with {@code target/*.jar}) loads it, builds its stack, synthesises it into
 * {@code .strata/sdk/} and runs the command there (ADR 0021).
 */
package dev.strata.cli.sdk;
