package org.bijou64.examples.counter;

/**
 * One record of the example: counter {@code id} (the record key) now has value {@code value} (the record
 * value).
 *
 * @param id the counter id, an {@code Integer} (bijou32 key) or a {@code Long} (bijou64 key)
 * @param value the counter's value after this update
 */
public record CounterUpdate(Number id, long value) {}
