import tensorflow as tf
