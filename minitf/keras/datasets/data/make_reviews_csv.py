"""Write `reviews.csv`: 600 short generated movie reviews as text, with a 0/1 label.

The reviews are the ones `tf.keras.datasets.reviews.load_data(num_samples=600)`
generates (a seeded generator over a 39-word vocabulary: neutral filler words,
sentiment words, and "not", which flips the word after it), decoded back to
words with `get_word_index()`. The label is 1 when the review's sentiment words
add up to positive, 0 when negative. Run from the repository root:

    python minitf/keras/datasets/data/make_reviews_csv.py

Same output on every run (the generator is seeded);
tests/widgets/test_widget_end_to_end.py checks the file's SHA-256 and that this
script writes the same bytes again.
"""
import csv
import os

from minitf.framework.atomic_file import atomic_write
from minitf.keras.datasets import reviews

NUM_REVIEWS = 600


def main(path=os.path.join(os.path.dirname(os.path.abspath(__file__)), "reviews.csv")):
    (x_train, y_train), (x_test, y_test) = reviews.load_data(num_samples=NUM_REVIEWS,
                                                             test_split=0.0)
    words = {rank + 3: word for word, rank in reviews.get_word_index().items()}
    rows = [(" ".join(words[i] for i in sequence[1:]), int(label))
            for sequence, label in zip(x_train, y_train)]
    with atomic_write(path) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(["text", "label"])
            writer.writerows(rows)


if __name__ == "__main__":
    main()
